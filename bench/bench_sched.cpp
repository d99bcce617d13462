/* bench_sched: the parallel-loop scheduler family of adapt_for (adaptive,
 * loopframe, dac, hybrid, lazy-df, lazy-df2, lazy-bf, static) side by side
 * with OpenMP (libgomp) and oneTBB on the same loops, in one process and one
 * run, on 1 and 2 workers (issue 4, docs/benchmarks-sched.md).
 *
 * Tables (each produced by one run of this program):
 *   micro   the OpenCilk loop-frame thesis's microbenchmarks (ch. 4.1) at
 *           grain G = 1: daxpy, mandelbrot (one loop over all pixels),
 *           nqueens (a parallel loop over the columns of every row, nested
 *           down to the leaves). Every adapt scheduler at grain 1 against
 *           OpenMP static / dynamic,1 / guided,1 and TBB auto / simple
 *           (grain 1) / affinity; time, speedup Ts/Tp, ratio to the best peer,
 *           and the dac/loopframe time ratio the thesis reports (2.7x, 2x,
 *           1.3x).
 *   hybrid  the hybrid-loop paper's iterative microbenchmarks: an outer
 *           serial loop of S steps over a parallel loop of n iterations,
 *           iteration i updating its own sub-array in strides of 13 modulo
 *           its length; balanced (equal lengths) and unbalanced (lengths
 *           growing linearly with i). Work efficiency Ts/T1, speedup Ts/T2,
 *           scalability T1/T2, and loop affinity: the share of iterations
 *           run by the same worker/thread as in the previous step (paper:
 *           hybrid 99.99% balanced, 67% unbalanced; Cilk and OpenMP
 *           dynamic/guided 3-12%). Chunk size min(2048, n/8P) for every
 *           platform, as in the paper.
 *   lazy    the lazy-scheduling paper's declarative codes, no manual
 *           cut-off: nqueens and fib through nested adapt_for at grain 1,
 *           eager (dac, loopframe, adaptive) against lazy (lazy-df,
 *           lazy-df2, lazy-bf), TBB simple / auto nested parallel_for and
 *           OpenMP tasks (fib) / taskloop (nqueens).
 *
 * Method: the runtime is started with 1 worker, every table's P=1 cases run,
 * then with 2 workers (adapt_finalize + adapt_init), every P=2 case. Inside
 * a case every variant, the sequential baseline Ts included, runs once per
 * round, the order rotated from round to round, after one untimed warm-up
 * round; every run (warm-up and timed) is checked against the sequential
 * result (bitwise arrays, exact counts) and a failing or erroring variant is
 * reported as FAILED in the table (exit code 3 at the end). Figures are
 * medians over the rounds; speedups and ratios are per-round paired ratios
 * (Ts of the same round; the best peer = the OpenMP/TBB variant with the
 * lowest median time in that case). Ts/T1 and T1/T2 (hybrid) pair the
 * medians of the two phases.
 *
 * Output: the tables on stdout and in OUT/sched_<table>.txt, one CSV per
 * table OUT/sched_<table>.csv, every sample in OUT/sched_samples.csv;
 * bench/scripts/sched_plot.py draws OUT/sched_<table>.png from the CSVs.
 *
 * Options: --out DIR, --tables micro,hybrid,lazy, --reps N (timed rounds,
 * default 7; nqueens: at most --slow-reps, default 5), --quick (3 rounds, small sizes: smoke test), --gap-ms MS (pause
 * before each 2-worker sample so that idle threads of the previous runtime
 * are asleep, default 10), --commit STR (recorded in the outputs), and the
 * sizes --daxpy-n, --mandel-side, --mandel-maxit, --nqueens, --lazy-nqueens, --fib,
 * --hybrid-n, --hybrid-elems, --hybrid-steps.
 */
#pragma GCC optimize("align-loops=64")

#include <adapt/adapt.h>
#include <adapt/algorithms.h>

#include "bench_util.hpp"
#include "perfcounters.h"

#include <omp.h>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/version.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#define STR2(x) #x
#define STR(x) STR2(x)
#define OMP(x) _Pragma(STR(omp x))

/* ------------------------------------------------------------------ */
/* Options                                                             */

struct options {
  std::string out = "build/release/bench-results";
  std::set<std::string> tables = {"micro", "hybrid", "lazy"};
  int reps = 7;
  int slow_reps = 5;
  bool quick = false;
  long long gap_ns = 10 * 1000000LL;
  std::string commit = "";
  size_t daxpy_n = (size_t)1 << 22; /* 2 x 32 MiB: beyond the 32 MiB L3 */
  int mandel_side = 384;
  int mandel_maxit = 128;
  int nqueens = 12;
  int lazy_nqueens = 12;
  int fib = 28;
  size_t hybrid_n = 4096;
  size_t hybrid_elems = 196608; /* 1.5 MiB of doubles: each core's half fits its L2 */
  int hybrid_steps = 100;
};
static options opt;

static void *xmalloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes) != 0) {
    fprintf(stderr, "bench_sched: out of memory (%zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}

/* First error returned by an adapt_for nested inside a body (a body cannot
 * return one); 0 if none. Read and cleared by the checks. */
static std::atomic<int> g_nested_rc{0};

static void note_rc(int rc) {
  if (rc != 0) {
    int zero = 0;
    g_nested_rc.compare_exchange_strong(zero, rc, std::memory_order_relaxed);
  }
}

static adapt_attr make_attr(adapt_sched s, size_t grain) {
  adapt_attr a;
  memset(&a, 0, sizeof a);
  a.sched = s;
  a.grain = grain;
  return a;
}

static const adapt_sched ALL_SCHEDS[] = {
    ADAPT_SCHED_ADAPTIVE, ADAPT_SCHED_LOOPFRAME, ADAPT_SCHED_DAC,     ADAPT_SCHED_HYBRID,
    ADAPT_SCHED_LAZY_DF,  ADAPT_SCHED_LAZY_DF2,  ADAPT_SCHED_LAZY_BF, ADAPT_SCHED_STATIC};

static std::string sched_label(adapt_sched s) {
  const char *n = adapt_sched_name(s);
  return std::string("adapt ") + (n ? n : "?");
}

/* ------------------------------------------------------------------ */
/* Variants, cases, alternation                                        */

enum family { FAM_SEQ, FAM_ADAPT, FAM_OMP, FAM_TBB };
static const char *family_name(family f) {
  switch (f) {
  case FAM_SEQ: return "sequential";
  case FAM_ADAPT: return "adapt";
  case FAM_OMP: return "openmp";
  case FAM_TBB: return "tbb";
  }
  return "?";
}

/* One implementation of a case: run() does the whole timed work and returns
 * 0 or a negative errno (adapt_for's). */
struct variant {
  std::string name;
  family fam;
  std::function<int()> run;
};

/* Measurements of one case (a benchmark at one worker count). */
struct case_result {
  std::string table, bench, note;
  int workers = 0;
  int rounds = 0;
  std::vector<std::string> names;
  std::vector<family> fams;
  std::vector<std::vector<double>> t;     /* seconds [variant][round] */
  std::vector<std::vector<double>> extra; /* affinity share [variant][round], hybrid only */
  std::vector<std::string> fail;          /* "" or why the variant failed */
  double noise = NAN; /* share of the CPUs used by other processes + hypervisor meanwhile */
};
static std::vector<case_result> results;
static bool any_failure = false;

struct sample_rec {
  std::string table, bench, impl;
  int workers, round;
  double seconds, extra;
};
static std::vector<sample_rec> samples;

/* Runs variants for `rounds` timed rounds after one warm-up round, rotating
 * the order each round. Before each run: prepare(i) then (gap_ns > 0) a
 * pause. After each run: check(i) returns "" or what is wrong; extra(i)
 * (may be empty) returns the run's extra figure (affinity). A variant that
 * fails is not run again. */
static case_result alternate(const std::string &table, const std::string &bench, int workers,
                             std::vector<variant> &v, int rounds, long long gap_ns,
                             const std::function<void(size_t)> &prepare,
                             const std::function<std::string(size_t)> &check,
                             const std::function<double(size_t)> &extra) {
  size_t m = v.size();
  case_result cr;
  cr.table = table;
  cr.bench = bench;
  cr.workers = workers;
  cr.rounds = rounds;
  cr.t.assign(m, {});
  cr.extra.assign(m, {});
  cr.fail.assign(m, "");
  for (size_t i = 0; i < m; i++) {
    cr.names.push_back(v[i].name);
    cr.fams.push_back(v[i].fam);
  }
  double t_start = now_s();
  noise_mark nm = noise_now();
  auto one = [&](size_t i, int round) {
    if (!cr.fail[i].empty()) return;
    if (prepare) prepare(i);
    if (gap_ns > 0) sleep_ns(gap_ns);
    g_nested_rc.store(0, std::memory_order_relaxed);
    double t0 = now_s();
    int rc = v[i].run();
    double t1 = now_s();
    int nrc = g_nested_rc.load(std::memory_order_relaxed);
    std::string why;
    if (rc != 0 || nrc != 0) {
      why = std::string("adapt_for returned ") + adapt_strerror(rc != 0 ? rc : nrc) +
            (rc != 0 ? "" : " (nested)");
    } else if (check) {
      why = check(i);
    }
    if (!why.empty()) {
      cr.fail[i] = why + (round < 0 ? " (warm-up)" : " (round " + std::to_string(round) + ")");
      fprintf(stderr, "bench_sched: %s, %s, %d worker(s): %s FAILED: %s\n", table.c_str(),
              bench.c_str(), workers, v[i].name.c_str(), cr.fail[i].c_str());
      any_failure = true;
      return;
    }
    if (round < 0) return;
    double x = extra && v[i].fam != FAM_SEQ ? extra(i) : NAN;
    cr.t[i].push_back(t1 - t0);
    cr.extra[i].push_back(x);
    samples.push_back(sample_rec{table, bench, v[i].name, workers, round, t1 - t0, x});
  };
  for (size_t i = 0; i < m; i++) one(i, -1);
  for (int r = 0; r < rounds; r++)
    for (size_t k = 0; k < m; k++) one((k + (size_t)r) % m, r);
  double others = 0, steal = 0, secs = 0;
  if (noise_shares(nm, noise_now(), &others, &steal, &secs)) cr.noise = others + steal;
  printf("   [%s] %s, %d worker(s): %zu variants x (1 + %d) rounds, %.1f s, noise %.0f%%\n",
         table.c_str(), bench.c_str(), workers, m, rounds, now_s() - t_start, 100 * cr.noise);
  fflush(stdout);
  return cr;
}

static int rounds(void) { return opt.quick ? 3 : opt.reps; }
/* nqueens (both tables): fewer rounds, its samples are the longest. */
static int slow_rounds(void) { return opt.quick ? 3 : std::min(opt.reps, opt.slow_reps); }
static long long gap_for(int workers) { return workers > 1 ? opt.gap_ns : 0; }

/* The best peer of a case: the OpenMP/TBB variant with the lowest median
 * time; -1 if none succeeded. */
static int best_peer(const case_result &c) {
  int best = -1;
  double bt = 0;
  for (size_t i = 0; i < c.names.size(); i++) {
    if ((c.fams[i] != FAM_OMP && c.fams[i] != FAM_TBB) || !c.fail[i].empty() || c.t[i].empty())
      continue;
    double t = median(c.t[i]);
    if (best < 0 || t < bt) {
      best = (int)i;
      bt = t;
    }
  }
  return best;
}

static int seq_index(const case_result &c) {
  for (size_t i = 0; i < c.names.size(); i++)
    if (c.fams[i] == FAM_SEQ) return (int)i;
  return -1;
}

static int index_of(const case_result &c, const std::string &name) {
  for (size_t i = 0; i < c.names.size(); i++)
    if (c.names[i] == name) return (int)i;
  return -1;
}

/* Per-round ratios a[r] / b[r] of two variants of one case. */
static std::vector<double> paired(const case_result &c, int a, int b) {
  std::vector<double> r;
  if (a < 0 || b < 0) return r;
  size_t k = std::min(c.t[(size_t)a].size(), c.t[(size_t)b].size());
  for (size_t j = 0; j < k; j++) r.push_back(c.t[(size_t)a][j] / c.t[(size_t)b][j]);
  return r;
}

/* Figures of one variant in one case. */
struct row_fig {
  bool ok = false;
  std::string fail;
  double ms = NAN, p25 = NAN, p75 = NAN;
  double speedup = NAN, sp25 = NAN, sp75 = NAN; /* Ts / Tp, per round */
  double vs_peer = NAN;                         /* Tp / T(best peer), per round */
  double affinity = NAN;                        /* median share, 0..1 */
  std::string peer;
};

static row_fig figures_of(const case_result &c, size_t i) {
  row_fig f;
  f.fail = c.fail[i];
  if (!f.fail.empty() || c.t[i].empty()) return f;
  f.ok = true;
  std::vector<double> ms;
  for (double s : c.t[i]) ms.push_back(s * 1e3);
  f.ms = median(ms);
  f.p25 = quantile(ms, 0.25);
  f.p75 = quantile(ms, 0.75);
  int s = seq_index(c);
  if (s >= 0 && c.fail[(size_t)s].empty()) {
    std::vector<double> sp = paired(c, s, (int)i);
    f.speedup = median(sp);
    f.sp25 = quantile(sp, 0.25);
    f.sp75 = quantile(sp, 0.75);
  }
  int b = best_peer(c);
  if (b >= 0) {
    f.vs_peer = median(paired(c, (int)i, b));
    f.peer = c.names[(size_t)b];
  }
  std::vector<double> aff;
  for (double x : c.extra[i])
    if (!std::isnan(x)) aff.push_back(x);
  if (!aff.empty()) f.affinity = median(aff);
  return f;
}

static const case_result *find_case(const std::string &table, const std::string &bench,
                                    int workers) {
  for (const case_result &c : results)
    if (c.table == table && c.bench == bench && c.workers == workers) return &c;
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Kernels: daxpy                                                      */

struct dx_ctx {
  double *y;
  const double *x;
  double a;
};

static void dx_body(size_t b, size_t e, void *p) {
  dx_ctx *c = (dx_ctx *)p;
  double *__restrict y = c->y;
  const double *__restrict x = c->x;
  double a = c->a;
  for (size_t i = b; i < e; i++) y[i] += a * x[i];
}

__attribute__((noinline)) static void dx_seq(double *__restrict y, const double *__restrict x,
                                             double a, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] += a * x[i];
}

#define DEF_DX_OMP(NAME, SCHED)                                                                    \
  static void NAME(double *y, const double *x, double a, size_t n, int P) {                        \
    OMP(parallel for num_threads(P) SCHED firstprivate(x, y, a))                                   \
    for (size_t i = 0; i < n; i++) y[i] += a * x[i];                                               \
  }
DEF_DX_OMP(dx_omp_static, schedule(static))
DEF_DX_OMP(dx_omp_dynamic1, schedule(dynamic, 1))
DEF_DX_OMP(dx_omp_guided1, schedule(guided, 1))

/* ------------------------------------------------------------------ */
/* Kernels: mandelbrot, one loop over the pixels of a side x side image    */

static inline int mb_pixel(size_t p, int side, int maxit) {
  int px = (int)(p % (size_t)side), py = (int)(p / (size_t)side);
  double cr = -2.0 + 2.5 * (double)px / (double)side;
  double ci = -1.25 + 2.5 * (double)py / (double)side;
  double zr = 0, zi = 0;
  int k = 0;
  while (k < maxit && zr * zr + zi * zi <= 4.0) {
    double t = zr * zr - zi * zi + cr;
    zi = 2.0 * zr * zi + ci;
    zr = t;
    k++;
  }
  return k;
}

struct mb_ctx {
  int *out;
  int side, maxit;
};

static void mb_body(size_t b, size_t e, void *p) {
  mb_ctx *c = (mb_ctx *)p;
  for (size_t i = b; i < e; i++) c->out[i] = mb_pixel(i, c->side, c->maxit);
}

__attribute__((noinline)) static void mb_seq(int *out, int side, int maxit) {
  size_t n = (size_t)side * (size_t)side;
  for (size_t i = 0; i < n; i++) out[i] = mb_pixel(i, side, maxit);
}

#define DEF_MB_OMP(NAME, SCHED)                                                                    \
  static void NAME(int *out, int side, int maxit, int P) {                                         \
    size_t n = (size_t)side * (size_t)side;                                                        \
    OMP(parallel for num_threads(P) SCHED firstprivate(out, side, maxit))                          \
    for (size_t i = 0; i < n; i++) out[i] = mb_pixel(i, side, maxit);                              \
  }
DEF_MB_OMP(mb_omp_static, schedule(static))
DEF_MB_OMP(mb_omp_dynamic1, schedule(dynamic, 1))
DEF_MB_OMP(mb_omp_guided1, schedule(guided, 1))

/* ------------------------------------------------------------------ */
/* Kernels: nqueens, a parallel loop over the n columns of every row         */
/* (the free-square test inside the body), nested down to the last row.      */
/* Each column's count goes to its own slot of the parent's array, so no      */
/* atomics and a fixed summation order.                                       */

static const long NQ_KNOWN[] = {1,  1,   0,   0,    2,     10,    4,      40,
                                92, 352, 724, 2680, 14200, 73712, 365596, 2279184};

struct nq_ctx {
  int n, row;
  unsigned cols, d1, d2;
  long *counts;
  const adapt_attr *attr;
};

static long nq_adapt(int n, int row, unsigned cols, unsigned d1, unsigned d2,
                     const adapt_attr *attr);

static void nq_body(size_t b, size_t e, void *p) {
  const nq_ctx *c = (const nq_ctx *)p;
  unsigned busy = c->cols | c->d1 | c->d2;
  for (size_t i = b; i < e; i++) {
    unsigned bit = 1u << i;
    c->counts[i] = (busy & bit) ? 0
                                : nq_adapt(c->n, c->row + 1, c->cols | bit, (c->d1 | bit) << 1,
                                           (c->d2 | bit) >> 1, c->attr);
  }
}

static long nq_adapt(int n, int row, unsigned cols, unsigned d1, unsigned d2,
                     const adapt_attr *attr) {
  if (row == n) return 1;
  long counts[32];
  nq_ctx c = {n, row, cols, d1, d2, counts, attr};
  int rc = adapt_for(0, (size_t)n, nq_body, &c, attr);
  if (rc != 0) {
    note_rc(rc);
    return -1;
  }
  long s = 0;
  for (int i = 0; i < n; i++) s += counts[i];
  return s;
}

__attribute__((noinline)) static long nq_seq(int n, int row, unsigned cols, unsigned d1,
                                             unsigned d2) {
  if (row == n) return 1;
  long counts[32];
  unsigned busy = cols | d1 | d2;
  for (int i = 0; i < n; i++) {
    unsigned bit = 1u << i;
    counts[i] = (busy & bit) ? 0 : nq_seq(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
  long s = 0;
  for (int i = 0; i < n; i++) s += counts[i];
  return s;
}

/* OpenMP parallel for at every row: with max-active-levels 1 (set in main)
 * only the top row's loop gets P threads, the nested regions run with a team
 * of one (what a user of nested `parallel for` gets by default). */
#define DEF_NQ_OMP(NAME, SCHED)                                                                    \
  static long NAME(int n, int row, unsigned cols, unsigned d1, unsigned d2, int P) {               \
    if (row == n) return 1;                                                                        \
    long counts[32];                                                                               \
    unsigned busy = cols | d1 | d2;                                                                \
    OMP(parallel for num_threads(P) SCHED shared(counts))                                          \
    for (int i = 0; i < n; i++) {                                                                  \
      unsigned bit = 1u << i;                                                                      \
      counts[i] =                                                                                  \
          (busy & bit) ? 0 : NAME(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1, P);    \
    }                                                                                              \
    long s = 0;                                                                                    \
    for (int i = 0; i < n; i++) s += counts[i];                                                    \
    return s;                                                                                      \
  }
DEF_NQ_OMP(nq_omp_static, schedule(static))
DEF_NQ_OMP(nq_omp_dynamic1, schedule(dynamic, 1))
DEF_NQ_OMP(nq_omp_guided1, schedule(guided, 1))

/* OpenMP's nested loop construct: taskloop at every row, one task per
 * column (grainsize 1); call inside parallel + single. */
static long nq_omp_taskloop(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == n) return 1;
  long counts[32];
  unsigned busy = cols | d1 | d2;
  OMP(taskloop grainsize(1) shared(counts) firstprivate(n, row, cols, d1, d2, busy))
  for (int i = 0; i < n; i++) {
    unsigned bit = 1u << i;
    counts[i] = (busy & bit)
                    ? 0
                    : nq_omp_taskloop(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
  long s = 0;
  for (int i = 0; i < n; i++) s += counts[i];
  return s;
}

/* TBB: nested parallel_for with grain 1; Part is the partitioner type (an
 * affinity_partitioner cannot be shared by concurrent loops, so the nested
 * affinity variant makes one per loop, which then behaves as auto). */
template <class Part>
static long nq_tbb(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == n) return 1;
  long counts[32];
  unsigned busy = cols | d1 | d2;
  Part part;
  tbb::parallel_for(
      tbb::blocked_range<int>(0, n, 1),
      [&](const tbb::blocked_range<int> &r) {
        for (int i = r.begin(); i != r.end(); i++) {
          unsigned bit = 1u << i;
          counts[i] = (busy & bit)
                          ? 0
                          : nq_tbb<Part>(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
        }
      },
      part);
  long s = 0;
  for (int i = 0; i < n; i++) s += counts[i];
  return s;
}

/* ------------------------------------------------------------------ */
/* Kernels: fib through a 2-iteration parallel loop at every level         */

__attribute__((noinline)) static long fib_seq(int n) {
  if (n < 2) return n;
  return fib_seq(n - 1) + fib_seq(n - 2);
}

static long fib_adapt(int n, const adapt_attr *attr);

struct fib_ctx {
  int n;
  long r[2];
  const adapt_attr *attr;
};

static void fib_body(size_t b, size_t e, void *p) {
  fib_ctx *c = (fib_ctx *)p;
  for (size_t i = b; i < e; i++) c->r[i] = fib_adapt(c->n - 1 - (int)i, c->attr);
}

static long fib_adapt(int n, const adapt_attr *attr) {
  if (n < 2) return n;
  fib_ctx c = {n, {0, 0}, attr};
  int rc = adapt_for(0, 2, fib_body, &c, attr);
  if (rc != 0) {
    note_rc(rc);
    return -1;
  }
  return c.r[0] + c.r[1];
}

template <class Part>
static long fib_tbb(int n) {
  if (n < 2) return n;
  long r[2];
  tbb::parallel_for(
      tbb::blocked_range<int>(0, 2, 1),
      [&](const tbb::blocked_range<int> &rg) {
        for (int i = rg.begin(); i != rg.end(); i++) r[i] = fib_tbb<Part>(n - 1 - i);
      },
      Part());
  return r[0] + r[1];
}

/* OpenMP tasks, no cut-off; call inside parallel + single. */
static long fib_omp(int n) {
  if (n < 2) return n;
  long a, b;
  OMP(task shared(a) firstprivate(n))
  a = fib_omp(n - 1);
  b = fib_omp(n - 2);
  OMP(taskwait)
  return a + b;
}

/* ------------------------------------------------------------------ */
/* Kernels: the hybrid paper's iterative microbenchmark                    */
/* Iteration i owns elements [off[i], off[i+1]) of one array and updates    */
/* each of them once per step, visiting them in strides of 13 modulo its     */
/* length m_i (m_i >= 14 and not a multiple of 13: a permutation). It then  */
/* records who ran it: owner[i] == me counts a hit for worker `me`.         */

enum { MAX_IDS = 64 };
struct alignas(64) hit_counter {
  long long v;
};

struct hy_data {
  double *a;
  const size_t *off;
  size_t n;
  int *owner;
  hit_counter *hits; /* [MAX_IDS] */
};

static inline void hy_iter(const hy_data &d, size_t i, int me) {
  size_t o = d.off[i], m = d.off[i + 1] - o;
  double *a = d.a + o;
  size_t j = 0;
  for (size_t k = 0; k < m; k++) {
    a[j] = a[j] * 0.999999 + 1e-6;
    j += 13;
    if (j >= m) j -= m;
  }
  if (d.owner[i] == me) d.hits[me].v++;
  d.owner[i] = me;
}

static int id_ok(int me) { return me >= 0 && me < MAX_IDS ? me : 0; }

static void hy_body(size_t b, size_t e, void *p) {
  const hy_data *d = (const hy_data *)p;
  int me = id_ok(adapt_worker_id());
  for (size_t i = b; i < e; i++) hy_iter(*d, i, me);
}

/* Ts: the same iterations and the same bookkeeping (as worker 0), no
 * parallel construct. */
__attribute__((noinline)) static void hy_seq(const hy_data &d, int steps) {
  for (int s = 0; s < steps; s++)
    for (size_t i = 0; i < d.n; i++) hy_iter(d, i, 0);
}

#define DEF_HY_OMP(NAME, SCHED)                                                                    \
  static void NAME(const hy_data &d, int steps, int P, int chunk) {                                \
    for (int s = 0; s < steps; s++) {                                                              \
      const hy_data *dp = &d;                                                                      \
      size_t n = d.n;                                                                              \
      OMP(parallel for num_threads(P) SCHED firstprivate(dp, n))                                   \
      for (size_t i = 0; i < n; i++) hy_iter(*dp, i, id_ok(omp_get_thread_num()));                 \
    }                                                                                              \
  }
DEF_HY_OMP(hy_omp_static, schedule(static))
DEF_HY_OMP(hy_omp_dynamic, schedule(dynamic, chunk))
DEF_HY_OMP(hy_omp_guided, schedule(guided, chunk))

template <class Part>
static void hy_tbb(tbb::task_arena &arena, const hy_data &d, int steps, size_t grain, Part &part) {
  arena.execute([&] {
    for (int s = 0; s < steps; s++)
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, d.n, grain),
          [&](const tbb::blocked_range<size_t> &r) {
            int me = id_ok(tbb::this_task_arena::current_thread_index());
            for (size_t i = r.begin(); i != r.end(); i++) hy_iter(d, i, me);
          },
          part);
  });
}

/* ------------------------------------------------------------------ */
/* Table: micro                                                        */

static const char *const OMP_NAMES_G1[] = {"omp static", "omp dynamic,1", "omp guided,1"};

/* The three TBB partitioners on the flat loop [0, n) at grain 1 (the
 * affinity partitioner is kept across the rounds, as TBB intends). */
template <class Body>
static void push_tbb_flat(std::vector<variant> &v, tbb::task_arena &arena, size_t n, Body body) {
  auto ap = std::make_shared<tbb::affinity_partitioner>();
  auto loop = [n, body](auto &part) {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1), body, part);
  };
  v.push_back({"tbb auto", FAM_TBB, [=, &arena] {
                 arena.execute([&] {
                   tbb::auto_partitioner p;
                   loop(p);
                 });
                 return 0;
               }});
  v.push_back({"tbb simple,1", FAM_TBB, [=, &arena] {
                 arena.execute([&] {
                   tbb::simple_partitioner p;
                   loop(p);
                 });
                 return 0;
               }});
  v.push_back({"tbb affinity", FAM_TBB, [=, &arena] {
                 arena.execute([&] { loop(*ap); });
                 return 0;
               }});
}

static void micro_cases(int P, tbb::task_arena &arena) {
  const int R = rounds();
  /* daxpy */
  {
    size_t n = opt.daxpy_n;
    double *x = (double *)xmalloc(n * sizeof(double));
    double *y = (double *)xmalloc(n * sizeof(double));
    double *yref = (double *)xmalloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++) x[i] = (double)(i % 1000) * 1e-3;
    const double a = 0.5;
    for (size_t i = 0; i < n; i++) yref[i] = 1.0;
    dx_seq(yref, x, a, n);
    std::vector<variant> v;
    v.push_back({"sequential (Ts)", FAM_SEQ, [=] {
                   dx_seq(y, x, a, n);
                   return 0;
                 }});
    for (adapt_sched s : ALL_SCHEDS)
      v.push_back({sched_label(s), FAM_ADAPT, [=] {
                     adapt_attr at = make_attr(s, 1);
                     dx_ctx c = {y, x, a};
                     return adapt_for(0, n, dx_body, &c, &at);
                   }});
    v.push_back({OMP_NAMES_G1[0], FAM_OMP, [=] {
                   dx_omp_static(y, x, a, n, P);
                   return 0;
                 }});
    v.push_back({OMP_NAMES_G1[1], FAM_OMP, [=] {
                   dx_omp_dynamic1(y, x, a, n, P);
                   return 0;
                 }});
    v.push_back({OMP_NAMES_G1[2], FAM_OMP, [=] {
                   dx_omp_guided1(y, x, a, n, P);
                   return 0;
                 }});
    push_tbb_flat(v, arena, n, [=](const tbb::blocked_range<size_t> &r) {
      for (size_t i = r.begin(); i != r.end(); i++) y[i] += a * x[i];
    });
    char bench[96];
    snprintf(bench, sizeof bench, "daxpy n=%zu", n);
    results.push_back(alternate(
        "micro", bench, P, v, R, gap_for(P),
        [=](size_t) {
          for (size_t i = 0; i < n; i++) y[i] = 1.0;
        },
        [=](size_t) -> std::string {
          return memcmp(y, yref, n * sizeof(double)) == 0 ? "" : "y differs from the sequential y";
        },
        nullptr));
    results.back().note = "y += 0.5*x, 2 arrays of " + std::to_string(n * 8 >> 20) +
                          " MiB; one loop per sample, grain 1";
    free(x);
    free(y);
    free(yref);
  }
  /* mandelbrot */
  {
    int side = opt.mandel_side, maxit = opt.mandel_maxit;
    size_t n = (size_t)side * (size_t)side;
    int *out = (int *)xmalloc(n * sizeof(int));
    int *ref = (int *)xmalloc(n * sizeof(int));
    mb_seq(ref, side, maxit);
    std::vector<variant> v;
    v.push_back({"sequential (Ts)", FAM_SEQ, [=] {
                   mb_seq(out, side, maxit);
                   return 0;
                 }});
    for (adapt_sched s : ALL_SCHEDS)
      v.push_back({sched_label(s), FAM_ADAPT, [=] {
                     adapt_attr at = make_attr(s, 1);
                     mb_ctx c = {out, side, maxit};
                     return adapt_for(0, n, mb_body, &c, &at);
                   }});
    v.push_back({OMP_NAMES_G1[0], FAM_OMP, [=] {
                   mb_omp_static(out, side, maxit, P);
                   return 0;
                 }});
    v.push_back({OMP_NAMES_G1[1], FAM_OMP, [=] {
                   mb_omp_dynamic1(out, side, maxit, P);
                   return 0;
                 }});
    v.push_back({OMP_NAMES_G1[2], FAM_OMP, [=] {
                   mb_omp_guided1(out, side, maxit, P);
                   return 0;
                 }});
    push_tbb_flat(v, arena, n, [=](const tbb::blocked_range<size_t> &r) {
      for (size_t i = r.begin(); i != r.end(); i++) out[i] = mb_pixel(i, side, maxit);
    });
    char bench[96];
    snprintf(bench, sizeof bench, "mandelbrot %dx%d", side, side);
    results.push_back(alternate(
        "micro", bench, P, v, R, gap_for(P), [=](size_t) { memset(out, 0xff, n * sizeof(int)); },
        [=](size_t) -> std::string {
          return memcmp(out, ref, n * sizeof(int)) == 0 ? ""
                                                        : "image differs from the sequential one";
        },
        nullptr));
    results.back().note = "one loop over the pixels, at most " + std::to_string(maxit) +
                          " iterations per pixel, grain 1";
    free(out);
    free(ref);
  }
  /* nqueens */
  {
    int nq = opt.nqueens;
    long ref = nq_seq(nq, 0, 0, 0, 0);
    if (nq >= 1 && nq < (int)(sizeof NQ_KNOWN / sizeof NQ_KNOWN[0]) && ref != NQ_KNOWN[nq]) {
      fprintf(stderr, "bench_sched: sequential nqueens(%d) = %ld, expected %ld\n", nq, ref,
              NQ_KNOWN[nq]);
      exit(3);
    }
    auto got = std::make_shared<long>(0);
    std::vector<variant> v;
    v.push_back({"sequential (Ts)", FAM_SEQ, [=] {
                   *got = nq_seq(nq, 0, 0, 0, 0);
                   return 0;
                 }});
    for (adapt_sched s : ALL_SCHEDS)
      v.push_back({sched_label(s), FAM_ADAPT, [=] {
                     adapt_attr at = make_attr(s, 1);
                     *got = nq_adapt(nq, 0, 0, 0, 0, &at);
                     return 0;
                   }});
    v.push_back({OMP_NAMES_G1[0], FAM_OMP, [=] {
                   *got = nq_omp_static(nq, 0, 0, 0, 0, P);
                   return 0;
                 }});
    v.push_back({OMP_NAMES_G1[1], FAM_OMP, [=] {
                   *got = nq_omp_dynamic1(nq, 0, 0, 0, 0, P);
                   return 0;
                 }});
    v.push_back({OMP_NAMES_G1[2], FAM_OMP, [=] {
                   *got = nq_omp_guided1(nq, 0, 0, 0, 0, P);
                   return 0;
                 }});
    v.push_back({"omp taskloop,1", FAM_OMP, [=] {
                   long r = 0;
                   OMP(parallel num_threads(P) shared(r)) {
                     OMP(single)
                     r = nq_omp_taskloop(nq, 0, 0, 0, 0);
                   }
                   *got = r;
                   return 0;
                 }});
    v.push_back({"tbb auto", FAM_TBB, [=, &arena] {
                   arena.execute([&] { *got = nq_tbb<tbb::auto_partitioner>(nq, 0, 0, 0, 0); });
                   return 0;
                 }});
    v.push_back({"tbb simple,1", FAM_TBB, [=, &arena] {
                   arena.execute([&] { *got = nq_tbb<tbb::simple_partitioner>(nq, 0, 0, 0, 0); });
                   return 0;
                 }});
    v.push_back({"tbb affinity", FAM_TBB, [=, &arena] {
                   arena.execute([&] { *got = nq_tbb<tbb::affinity_partitioner>(nq, 0, 0, 0, 0); });
                   return 0;
                 }});
    char bench[96];
    snprintf(bench, sizeof bench, "nqueens n=%d", nq);
    results.push_back(alternate(
        "micro", bench, P, v, slow_rounds(), gap_for(P), [=](size_t) { *got = -2; },
        [=](size_t) -> std::string {
          if (*got == ref) return "";
          return "count " + std::to_string(*got) + ", sequential " + std::to_string(ref);
        },
        nullptr));
    results.back().note = "parallel loop over the " + std::to_string(nq) +
                          " columns of every row, nested to the last row, grain 1; omp "
                          "static/dynamic/guided: nested regions inactive (team of 1)";
  }
}

/* ------------------------------------------------------------------ */
/* Table: hybrid                                                       */

static void hybrid_cases(int P, tbb::task_arena &arena) {
  const int R = rounds();
  const size_t n = opt.hybrid_n, E = opt.hybrid_elems;
  const int steps = opt.hybrid_steps;
  size_t chunk = std::min<size_t>(2048, std::max<size_t>(1, n / (8 * (size_t)P)));
  for (int unbalanced = 0; unbalanced <= 1; unbalanced++) {
    /* Lengths: balanced E/n each; unbalanced proportional to i + 1 (the last
     * iteration ~2E/n, the first ~0), at least 14, never a multiple of 13. */
    std::vector<size_t> off(n + 1, 0);
    for (size_t i = 0; i < n; i++) {
      size_t m = unbalanced
                     ? (size_t)((2.0 * (double)E * (double)(i + 1)) / ((double)n * (double)(n + 1)))
                     : E / n;
      if (m < 14) m = 14;
      if (m % 13 == 0) m++;
      off[i + 1] = off[i] + m;
    }
    size_t total = off[n];
    double *a = (double *)xmalloc(total * sizeof(double));
    double *ref = (double *)xmalloc(total * sizeof(double));
    int *owner = (int *)xmalloc(n * sizeof(int));
    hit_counter *hits = (hit_counter *)xmalloc(MAX_IDS * sizeof(hit_counter));
    auto offp = std::make_shared<std::vector<size_t>>(off);
    hy_data d = {a, offp->data(), n, owner, hits};
    auto reset = [=] {
      for (size_t k = 0; k < total; k++) a[k] = 1.0 + (double)(k & 255) * 1e-3;
      for (size_t i = 0; i < n; i++) owner[i] = -1;
      memset(hits, 0, MAX_IDS * sizeof(hit_counter));
    };
    reset();
    hy_seq(d, steps);
    memcpy(ref, a, total * sizeof(double));
    auto ap = std::make_shared<tbb::affinity_partitioner>();
    std::vector<variant> v;
    v.push_back({"sequential (Ts)", FAM_SEQ, [=] {
                   hy_seq(d, steps);
                   return 0;
                 }});
    for (adapt_sched s : ALL_SCHEDS)
      v.push_back({sched_label(s), FAM_ADAPT, [=] {
                     adapt_attr at = make_attr(s, 0);
                     for (int k = 0; k < steps; k++) {
                       int rc = adapt_for(0, n, hy_body, (void *)&d, &at);
                       if (rc != 0) return rc;
                     }
                     return 0;
                   }});
    v.push_back({"omp static", FAM_OMP, [=] {
                   hy_omp_static(d, steps, P, (int)chunk);
                   return 0;
                 }});
    v.push_back({"omp dynamic,C", FAM_OMP, [=] {
                   hy_omp_dynamic(d, steps, P, (int)chunk);
                   return 0;
                 }});
    v.push_back({"omp guided,C", FAM_OMP, [=] {
                   hy_omp_guided(d, steps, P, (int)chunk);
                   return 0;
                 }});
    v.push_back({"tbb auto", FAM_TBB, [=, &arena] {
                   tbb::auto_partitioner p;
                   hy_tbb(arena, d, steps, 1, p);
                   return 0;
                 }});
    v.push_back({"tbb simple,C", FAM_TBB, [=, &arena] {
                   tbb::simple_partitioner p;
                   hy_tbb(arena, d, steps, chunk, p);
                   return 0;
                 }});
    v.push_back({"tbb affinity", FAM_TBB, [=, &arena] {
                   hy_tbb(arena, d, steps, 1, *ap);
                   return 0;
                 }});
    char bench[96];
    snprintf(bench, sizeof bench, "%s", unbalanced ? "unbalanced" : "balanced");
    results.push_back(alternate(
        "hybrid", bench, P, v, R, gap_for(P), [=](size_t) { reset(); },
        [=](size_t) -> std::string {
          for (size_t i = 0; i < n; i++)
            if (owner[i] < 0) return "iteration " + std::to_string(i) + " never ran";
          if (memcmp(a, ref, total * sizeof(double)) != 0)
            return "array differs from the sequential one";
          return "";
        },
        [=](size_t) {
          long long h = 0;
          for (int w = 0; w < MAX_IDS; w++) h += hits[w].v;
          return (double)h / ((double)n * (double)(steps - 1));
        }));
    char note[256];
    snprintf(note, sizeof note,
             "%d steps x parallel loop of %zu iterations, %zu doubles (%.2f MiB) in stride-13 "
             "order, lengths %zu..%zu; chunk C = min(2048, n/8P) = %zu (P=1), %zu (P=2); adapt "
             "schedulers at their default grain",
             steps, n, total, (double)total * 8 / 1048576.0, off[1] - off[0], off[n] - off[n - 1],
             std::min<size_t>(2048, std::max<size_t>(1, n / 8)),
             std::min<size_t>(2048, std::max<size_t>(1, n / 16)));
    results.back().note = note;
    free(a);
    free(ref);
    free(owner);
    free(hits);
  }
}

/* ------------------------------------------------------------------ */
/* Table: lazy                                                         */

static const adapt_sched LAZY_TABLE_SCHEDS[] = {ADAPT_SCHED_DAC,      ADAPT_SCHED_LOOPFRAME,
                                                ADAPT_SCHED_ADAPTIVE, ADAPT_SCHED_LAZY_DF,
                                                ADAPT_SCHED_LAZY_DF2, ADAPT_SCHED_LAZY_BF};

static void lazy_cases(int P, tbb::task_arena &arena) {
  const int R = rounds();
  auto got = std::make_shared<long>(0);
  {
    int nq = opt.lazy_nqueens;
    long ref = nq_seq(nq, 0, 0, 0, 0);
    std::vector<variant> v;
    v.push_back({"sequential (Ts)", FAM_SEQ, [=] {
                   *got = nq_seq(nq, 0, 0, 0, 0);
                   return 0;
                 }});
    for (adapt_sched s : LAZY_TABLE_SCHEDS)
      v.push_back({sched_label(s), FAM_ADAPT, [=] {
                     adapt_attr at = make_attr(s, 1);
                     *got = nq_adapt(nq, 0, 0, 0, 0, &at);
                     return 0;
                   }});
    v.push_back({"tbb simple,1", FAM_TBB, [=, &arena] {
                   arena.execute([&] { *got = nq_tbb<tbb::simple_partitioner>(nq, 0, 0, 0, 0); });
                   return 0;
                 }});
    v.push_back({"tbb auto", FAM_TBB, [=, &arena] {
                   arena.execute([&] { *got = nq_tbb<tbb::auto_partitioner>(nq, 0, 0, 0, 0); });
                   return 0;
                 }});
    v.push_back({"omp taskloop,1", FAM_OMP, [=] {
                   long r = 0;
                   OMP(parallel num_threads(P) shared(r)) {
                     OMP(single)
                     r = nq_omp_taskloop(nq, 0, 0, 0, 0);
                   }
                   *got = r;
                   return 0;
                 }});
    char bench[96];
    snprintf(bench, sizeof bench, "nqueens n=%d", nq);
    results.push_back(alternate(
        "lazy", bench, P, v, slow_rounds(), gap_for(P), [=](size_t) { *got = -2; },
        [=](size_t) -> std::string {
          if (*got == ref) return "";
          return "count " + std::to_string(*got) + ", sequential " + std::to_string(ref);
        },
        nullptr));
    results.back().note = "declarative: a grain-1 parallel loop over the columns of every row, "
                          "no cut-off";
  }
  {
    int fn = opt.fib;
    long ref = fib_seq(fn);
    std::vector<variant> v;
    v.push_back({"sequential (Ts)", FAM_SEQ, [=] {
                   *got = fib_seq(fn);
                   return 0;
                 }});
    for (adapt_sched s : LAZY_TABLE_SCHEDS)
      v.push_back({sched_label(s), FAM_ADAPT, [=] {
                     adapt_attr at = make_attr(s, 1);
                     *got = fib_adapt(fn, &at);
                     return 0;
                   }});
    v.push_back({"tbb simple,1", FAM_TBB, [=, &arena] {
                   arena.execute([&] { *got = fib_tbb<tbb::simple_partitioner>(fn); });
                   return 0;
                 }});
    v.push_back({"tbb auto", FAM_TBB, [=, &arena] {
                   arena.execute([&] { *got = fib_tbb<tbb::auto_partitioner>(fn); });
                   return 0;
                 }});
    v.push_back({"omp tasks", FAM_OMP, [=] {
                   long r = 0;
                   OMP(parallel num_threads(P) shared(r)) {
                     OMP(single)
                     r = fib_omp(fn);
                   }
                   *got = r;
                   return 0;
                 }});
    char bench[96];
    snprintf(bench, sizeof bench, "fib(%d)", fn);
    results.push_back(alternate(
        "lazy", bench, P, v, R, gap_for(P), [=](size_t) { *got = -2; },
        [=](size_t) -> std::string {
          if (*got == ref) return "";
          return "fib " + std::to_string(*got) + ", sequential " + std::to_string(ref);
        },
        nullptr));
    results.back().note = "a 2-iteration grain-1 parallel loop at every level (omp: task + "
                          "taskwait), no cut-off";
  }
}

/* ------------------------------------------------------------------ */
/* Report                                                              */

static std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static std::string fmt(const char *f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

static std::string num(double v, const char *f) { return std::isnan(v) ? "-" : fmt(f, v); }

/* Benches of a table in run order, and the variant names of a bench in
 * run order (union over the worker counts). */
static std::vector<std::string> benches_of(const std::string &table) {
  std::vector<std::string> b;
  for (const case_result &c : results)
    if (c.table == table && std::find(b.begin(), b.end(), c.bench) == b.end()) b.push_back(c.bench);
  return b;
}

static std::vector<std::pair<std::string, family>> names_of(const std::string &table,
                                                            const std::string &bench) {
  std::vector<std::pair<std::string, family>> v;
  for (const case_result &c : results)
    if (c.table == table && c.bench == bench)
      for (size_t i = 0; i < c.names.size(); i++) {
        bool seen = false;
        for (auto &p : v) seen = seen || p.first == c.names[i];
        if (!seen) v.push_back({c.names[i], c.fams[i]});
      }
  return v;
}

static row_fig fig(const std::string &table, const std::string &bench, int P,
                   const std::string &name) {
  const case_result *c = find_case(table, bench, P);
  if (!c) return row_fig();
  int i = index_of(*c, name);
  if (i < 0) return row_fig();
  return figures_of(*c, (size_t)i);
}

/* "1.23x [p25 p75]" of the paired a/b ratio in one case. */
static std::string ratio_text(const std::string &table, const std::string &bench, int P,
                              const std::string &a, const std::string &b) {
  const case_result *c = find_case(table, bench, P);
  if (!c) return "-";
  int ia = index_of(*c, a), ib = index_of(*c, b);
  if (ia < 0 || ib < 0 || !c->fail[(size_t)ia].empty() || !c->fail[(size_t)ib].empty())
    return "n/a (failed)";
  std::vector<double> r = paired(*c, ia, ib);
  if (r.empty()) return "-";
  return fmt("%.2fx [%.2f %.2f]", median(r), quantile(r, 0.25), quantile(r, 0.75));
}

static std::string failures_text(const std::string &table) {
  std::string s;
  for (const case_result &c : results)
    if (c.table == table)
      for (size_t i = 0; i < c.names.size(); i++)
        if (!c.fail[i].empty())
          s += fmt("   FAILED: %s, P=%d, %s: %s\n", c.bench.c_str(), c.workers, c.names[i].c_str(),
                   c.fail[i].c_str());
  return s;
}

static std::string notes_text(const std::string &table) {
  std::string s;
  for (const std::string &b : benches_of(table)) {
    const case_result *c = find_case(table, b, 1);
    if (!c) c = find_case(table, b, 2);
    if (c && !c->note.empty()) s += fmt("   %s: %s\n", b.c_str(), c->note.c_str());
  }
  return s;
}

static std::string noise_lines;

/* micro and lazy: ms, speedup and ratio to the best peer at P = 1 and 2. */
static std::string report_speed_table(const std::string &table, const std::string &title) {
  std::string s = "\n== " + title + "\n";
  s += notes_text(table);
  s += fmt("   %d timed rounds (nqueens: %d), medians; speedup = Ts/Tp paired per round, \"vs "
           "peer\" = Tp / T(best OpenMP/TBB variant of that row's P), < 1 is faster\n",
           rounds(), slow_rounds());
  for (const std::string &b : benches_of(table)) {
    s += fmt("\n   %-18s | %-36s | %-36s\n", b.c_str(), "P=1: ms       Ts/T1   vs peer",
             "P=2: ms       Ts/T2   vs peer");
    for (auto &nf : names_of(table, b)) {
      std::string cell[2];
      for (int P = 1; P <= 2; P++) {
        row_fig f = fig(table, b, P, nf.first);
        if (!f.fail.empty())
          cell[P - 1] = "FAILED";
        else if (!f.ok)
          cell[P - 1] = "-";
        else
          cell[P - 1] = fmt("%9.2f  %7.3f  %7.2f", f.ms, f.speedup, f.vs_peer);
      }
      s += fmt("   %-18s | %-36s | %-36s\n", nf.first.c_str(), cell[0].c_str(), cell[1].c_str());
    }
    for (int P = 1; P <= 2; P++) {
      const case_result *c = find_case(table, b, P);
      if (!c) continue;
      int bp = best_peer(*c);
      s += fmt("   P=%d: best peer %s; noise (other processes + hypervisor) %.0f%%%s\n", P,
               bp >= 0 ? c->names[(size_t)bp].c_str() : "none", 100 * c->noise,
               c->noise > 0.10 ? "  -- NOISY" : "");
    }
  }
  return s;
}

static std::string report_micro(void) {
  std::string s =
      report_speed_table("micro", "Table 1 (micro): loop-frame thesis microbenchmarks at grain 1");
  s += "\n   dac / loopframe time ratio (thesis: daxpy 2.7x, mandelbrot 2x, nqueens 1.3x), "
       "median [p25 p75] of per-round ratios:\n";
  for (const std::string &b : benches_of("micro"))
    s += fmt(
        "   %-18s P=1 %-24s P=2 %s\n", b.c_str(),
        ratio_text("micro", b, 1, sched_label(ADAPT_SCHED_DAC), sched_label(ADAPT_SCHED_LOOPFRAME))
            .c_str(),
        ratio_text("micro", b, 2, sched_label(ADAPT_SCHED_DAC), sched_label(ADAPT_SCHED_LOOPFRAME))
            .c_str());
  s += failures_text("micro");
  return s;
}

static std::string report_lazy(void) {
  std::string s = report_speed_table(
      "lazy", "Table 3 (lazy): declarative nqueens and fib, nested grain-1 loops, no cut-off");
  s += "\n   best eager / best lazy adapt scheduler (time ratio of the medians, > 1: lazy "
       "faster):\n";
  const adapt_sched eager[] = {ADAPT_SCHED_DAC, ADAPT_SCHED_LOOPFRAME, ADAPT_SCHED_ADAPTIVE};
  const adapt_sched lazy[] = {ADAPT_SCHED_LAZY_DF, ADAPT_SCHED_LAZY_DF2, ADAPT_SCHED_LAZY_BF};
  for (const std::string &b : benches_of("lazy")) {
    std::string line = fmt("   %-18s", b.c_str());
    for (int P = 1; P <= 2; P++) {
      double be = NAN, bl = NAN;
      std::string ne, nl;
      for (adapt_sched e : eager) {
        row_fig f = fig("lazy", b, P, sched_label(e));
        if (f.ok && (std::isnan(be) || f.ms < be)) {
          be = f.ms;
          ne = adapt_sched_name(e);
        }
      }
      for (adapt_sched l : lazy) {
        row_fig f = fig("lazy", b, P, sched_label(l));
        if (f.ok && (std::isnan(bl) || f.ms < bl)) {
          bl = f.ms;
          nl = adapt_sched_name(l);
        }
      }
      line += fmt(" P=%d: %s / %s = %s ", P, ne.c_str(), nl.c_str(), num(be / bl, "%.2f").c_str());
    }
    s += line + "\n";
  }
  s += failures_text("lazy");
  return s;
}

static std::string report_hybrid(void) {
  std::string s =
      "\n== Table 2 (hybrid): iterative balanced / unbalanced microbenchmarks (hybrid-loop "
      "paper)\n";
  s += notes_text("hybrid");
  s += fmt("   %d timed rounds (medians); Ts/T1 = work efficiency, Ts/T2 = speedup (paired per "
           "round), T1/T2 = scalability (ratio of medians);\n   affinity = share of iterations "
           "run by the same worker/thread as in the previous step, P=2; vs peer = T2 / T2(best "
           "peer)\n",
           rounds());
  for (const std::string &b : benches_of("hybrid")) {
    s += fmt("\n   %-18s %9s %9s %8s %8s %8s %10s %8s\n", b.c_str(), "T1 ms", "T2 ms", "Ts/T1",
             "Ts/T2", "T1/T2", "affinity", "vs peer");
    for (auto &nf : names_of("hybrid", b)) {
      row_fig f1 = fig("hybrid", b, 1, nf.first), f2 = fig("hybrid", b, 2, nf.first);
      if (!f1.fail.empty() || !f2.fail.empty()) {
        s += fmt("   %-18s FAILED\n", nf.first.c_str());
        continue;
      }
      s += fmt("   %-18s %9s %9s %8s %8s %8s %10s %8s\n", nf.first.c_str(),
               num(f1.ms, "%.2f").c_str(), num(f2.ms, "%.2f").c_str(),
               num(f1.speedup, "%.3f").c_str(), num(f2.speedup, "%.3f").c_str(),
               num(f1.ms / f2.ms, "%.3f").c_str(), num(f2.affinity * 100, "%.2f%%").c_str(),
               num(f2.vs_peer, "%.2f").c_str());
    }
    for (int P = 1; P <= 2; P++) {
      const case_result *c = find_case("hybrid", b, P);
      if (!c) continue;
      int bp = best_peer(*c);
      s += fmt("   P=%d: best peer %s; noise (other processes + hypervisor) %.0f%%%s\n", P,
               bp >= 0 ? c->names[(size_t)bp].c_str() : "none", 100 * c->noise,
               c->noise > 0.10 ? "  -- NOISY" : "");
    }
  }
  s += failures_text("hybrid");
  return s;
}

static void write_text(const std::string &path, const std::string &header, const std::string &t) {
  FILE *f = fopen(path.c_str(), "w");
  if (!f) {
    perror(path.c_str());
    exit(2);
  }
  fputs(header.c_str(), f);
  fputs(t.c_str(), f);
  fputs(noise_lines.c_str(), f);
  fclose(f);
}

static void write_table_csv(const std::string &path, const std::string &table,
                            const std::string &when, const std::string &host) {
  FILE *f = fopen(path.c_str(), "w");
  if (!f) {
    perror(path.c_str());
    exit(2);
  }
  fprintf(f, "date,host,commit,table,bench,workers,impl,family,rounds,median_ms,p25_ms,p75_ms,"
             "speedup_vs_seq,speedup_p25,speedup_p75,ratio_to_best_peer,best_peer,affinity_pct,"
             "noise_pct,status\n");
  for (const case_result &c : results) {
    if (c.table != table) continue;
    for (size_t i = 0; i < c.names.size(); i++) {
      row_fig g = figures_of(c, i);
      auto n = [](double v) { return std::isnan(v) ? std::string("") : fmt("%.6g", v); };
      fprintf(f, "%s,%s,%s,%s,%s,%d,%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
              csv_quote(when).c_str(), csv_quote(host).c_str(), csv_quote(opt.commit).c_str(),
              table.c_str(), csv_quote(c.bench).c_str(), c.workers, csv_quote(c.names[i]).c_str(),
              family_name(c.fams[i]), (int)c.t[i].size(), n(g.ms).c_str(), n(g.p25).c_str(),
              n(g.p75).c_str(), n(g.speedup).c_str(), n(g.sp25).c_str(), n(g.sp75).c_str(),
              n(g.vs_peer).c_str(), csv_quote(g.peer).c_str(), n(g.affinity * 100).c_str(),
              n(c.noise * 100).c_str(),
              csv_quote(g.fail.empty() ? "ok" : "FAILED: " + g.fail).c_str());
    }
  }
  fclose(f);
}

static void write_samples_csv(const std::string &path) {
  FILE *f = fopen(path.c_str(), "w");
  if (!f) {
    perror(path.c_str());
    exit(2);
  }
  fprintf(f, "table,bench,workers,impl,round,seconds,affinity\n");
  for (const sample_rec &s : samples)
    fprintf(f, "%s,%s,%d,%s,%d,%.9f,%s\n", s.table.c_str(), csv_quote(s.bench).c_str(), s.workers,
            csv_quote(s.impl).c_str(), s.round, s.seconds,
            std::isnan(s.extra) ? "" : fmt("%.6f", s.extra).c_str());
  fclose(f);
}

/* ------------------------------------------------------------------ */
/* Runtimes                                                            */

static void adapt_start(int workers) {
  adapt_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.workers = workers;
  int rc = adapt_init(&cfg);
  if (rc != 0) {
    fprintf(stderr, "bench_sched: adapt_init(%d workers): %s\n", workers, adapt_strerror(rc));
    exit(2);
  }
  if (adapt_num_workers() != workers) {
    fprintf(stderr, "bench_sched: asked for %d adapt workers, runtime has %d\n", workers,
            adapt_num_workers());
    exit(2);
  }
}

/* The OpenMP and TBB pools are created before adapt binds the main thread
 * (threads inherit their creator's affinity); this checks their workers may
 * still run on every CPU. */
static std::string check_affinity(tbb::task_arena &arena2) {
  int omp_min = 1 << 20, tbb_min = 1 << 20;
  OMP(parallel num_threads(2) reduction(min : omp_min)) {
    if (omp_get_thread_num() != 0) omp_min = cpus_allowed();
  }
  std::vector<int> seen(64, 1 << 20);
  for (int attempt = 0; attempt < 50; attempt++) {
    arena2.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, 64, 1),
          [&](const tbb::blocked_range<size_t> &r) {
            volatile double v = 0;
            for (int j = 0; j < 20000; j++) v = v + 1.0;
            if (tbb::this_task_arena::current_thread_index() != 0) seen[r.begin()] = cpus_allowed();
          },
          tbb::simple_partitioner());
    });
    if (*std::min_element(seen.begin(), seen.end()) != 1 << 20) break;
  }
  for (int s : seen) tbb_min = std::min(tbb_min, s);
  std::string s = fmt("   affinity: adapt workers bound to PU %d and %d; OpenMP worker may run on "
                      "%s CPU(s), TBB worker on %s\n",
                      adapt_worker_pu(0), adapt_worker_pu(1),
                      omp_min == 1 << 20 ? "?" : std::to_string(omp_min).c_str(),
                      tbb_min == 1 << 20 ? "? (did not join)" : std::to_string(tbb_min).c_str());
  if ((omp_min != 1 << 20 && omp_min < 2) || (tbb_min != 1 << 20 && tbb_min < 2))
    s += "   WARNING: a peer runtime's worker is confined to one CPU; its speedups are not "
         "meaningful\n";
  return s;
}

static void usage(void) {
  fprintf(stderr,
          "usage: bench_sched [--out DIR] [--tables micro,hybrid,lazy] [--reps N] [--slow-reps N]\n"
          "                   [--quick]\n"
          "                   [--gap-ms MS] [--commit STR] [--daxpy-n N] [--mandel-side N]\n"
          "                   [--mandel-maxit N]\n"
          "                   [--nqueens N] [--lazy-nqueens N] [--fib N] [--hybrid-n N]\n"
          "                   [--hybrid-elems N] [--hybrid-steps N]\n");
  exit(2);
}

static long long parse_pos(const char *s, long long lo, long long hi) {
  char *end = NULL;
  long long v = strtoll(s, &end, 10);
  if (!end || *end || v < lo || v > hi) usage();
  return v;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    bool more = i + 1 < argc;
    if (a == "--out" && more) {
      opt.out = argv[++i];
    } else if (a == "--quick") {
      opt.quick = true;
      opt.daxpy_n = (size_t)1 << 18;
      opt.mandel_side = 128;
      opt.nqueens = 9;
      opt.lazy_nqueens = 9;
      opt.fib = 20;
      opt.hybrid_steps = 10;
    } else if (a == "--reps" && more) {
      opt.reps = (int)parse_pos(argv[++i], 1, 1000);
    } else if (a == "--slow-reps" && more) {
      opt.slow_reps = (int)parse_pos(argv[++i], 1, 1000);
    } else if (a == "--gap-ms" && more) {
      opt.gap_ns = (long long)(atof(argv[++i]) * 1e6);
    } else if (a == "--commit" && more) {
      opt.commit = argv[++i];
    } else if (a == "--daxpy-n" && more) {
      opt.daxpy_n = (size_t)parse_pos(argv[++i], 1, 1LL << 30);
    } else if (a == "--mandel-side" && more) {
      opt.mandel_side = (int)parse_pos(argv[++i], 1, 1 << 14);
    } else if (a == "--mandel-maxit" && more) {
      opt.mandel_maxit = (int)parse_pos(argv[++i], 1, 1 << 20);
    } else if (a == "--nqueens" && more) {
      opt.nqueens = (int)parse_pos(argv[++i], 1, 15);
    } else if (a == "--lazy-nqueens" && more) {
      opt.lazy_nqueens = (int)parse_pos(argv[++i], 1, 15);
    } else if (a == "--fib" && more) {
      opt.fib = (int)parse_pos(argv[++i], 2, 40);
    } else if (a == "--hybrid-n" && more) {
      opt.hybrid_n = (size_t)parse_pos(argv[++i], 16, 1 << 24);
    } else if (a == "--hybrid-elems" && more) {
      opt.hybrid_elems = (size_t)parse_pos(argv[++i], 1024, 1LL << 30);
    } else if (a == "--hybrid-steps" && more) {
      opt.hybrid_steps = (int)parse_pos(argv[++i], 2, 100000);
    } else if (a == "--tables" && more) {
      opt.tables.clear();
      std::string l = argv[++i];
      size_t p = 0;
      while (p <= l.size()) {
        size_t q = l.find(',', p);
        if (q == std::string::npos) q = l.size();
        std::string s = l.substr(p, q - p);
        if (s != "micro" && s != "hybrid" && s != "lazy") usage();
        opt.tables.insert(s);
        p = q + 1;
      }
    } else {
      usage();
    }
  }

  struct utsname un;
  uname(&un);
  std::string when = utc_now(), host = un.nodename;
  std::string header =
      fmt("bench_sched: libadapt %d.%d (commit %s) vs OpenMP %d (libgomp) vs oneTBB %s\n",
          ADAPT_VERSION_MAJOR, ADAPT_VERSION_MINOR, opt.commit.empty() ? "?" : opt.commit.c_str(),
          _OPENMP, TBB_runtime_version());
  header +=
      fmt("   %s, host %s, %s, %ld CPUs online, kernel %s, gcc %s\n", when.c_str(), host.c_str(),
          cpu_model().c_str(), sysconf(_SC_NPROCESSORS_ONLN), un.release, __VERSION__);
  header += fmt("   load average at start: %s\n", loadavg().c_str());
  for (const char *v : {"ADAPT_WORKERS", "ADAPT_GRAIN", "ADAPT_SCHED", "ADAPT_BIND",
                        "ADAPT_SPIN_US", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OMP_PROC_BIND",
                        "OMP_MAX_ACTIVE_LEVELS", "OMP_NESTED"})
    if (getenv(v)) header += fmt("   note: %s=%s is set\n", v, getenv(v));
  if (opt.quick) header += "   --quick: 3 rounds, small sizes: figures NOT meaningful\n";
  printf("%s", header.c_str());
  fflush(stdout);

  /* Nested OpenMP parallel regions run with a team of one (the default of
   * libgomp when OMP_NESTED / OMP_MAX_ACTIVE_LEVELS are unset). */
  omp_set_max_active_levels(1);
  /* Create the OpenMP and TBB pools before adapt binds the main thread. */
  tbb::task_arena arena1(1), arena2(2);
  arena1.initialize();
  arena2.initialize();
  {
    OMP(parallel num_threads(2)) { (void)omp_get_thread_num(); }
    arena2.execute([] {
      tbb::parallel_for(tbb::blocked_range<int>(0, 64, 1), [](const tbb::blocked_range<int> &) {});
    });
  }

  for (int P = 1; P <= 2; P++) {
    adapt_start(P);
    tbb::task_arena &arena = P == 1 ? arena1 : arena2;
    printf("\n-- %d worker(s)\n", P);
    if (P == 2) {
      std::string aff = check_affinity(arena2);
      printf("%s", aff.c_str());
      header += aff;
    }
    noise_mark m = noise_now();
    if (opt.tables.count("micro")) micro_cases(P, arena);
    if (opt.tables.count("hybrid")) hybrid_cases(P, arena);
    if (opt.tables.count("lazy")) lazy_cases(P, arena);
    double others = 0, steal = 0, secs = 0;
    if (noise_shares(m, noise_now(), &others, &steal, &secs))
      noise_lines += fmt("   noise, %d-worker phase (%.0f s): other processes used %.0f%% and the "
                         "hypervisor stole %.0f%% of the CPUs%s\n",
                         P, secs, 100 * others, 100 * steal,
                         others + steal > 0.10 ? "  -- NOISY: re-run for figures to quote" : "");
    adapt_finalize();
  }

  mkdirs(opt.out);
  header += fmt("   load average at end: %s\n", loadavg().c_str());
  struct {
    const char *name;
    std::string (*report)(void);
  } tables[] = {{"micro", report_micro}, {"hybrid", report_hybrid}, {"lazy", report_lazy}};
  for (auto &t : tables) {
    if (!opt.tables.count(t.name)) continue;
    std::string text = t.report();
    printf("%s", text.c_str());
    write_text(opt.out + "/sched_" + t.name + ".txt", header, text);
    write_table_csv(opt.out + "/sched_" + t.name + ".csv", t.name, when, host);
  }
  printf("\n%s", noise_lines.c_str());
  write_samples_csv(opt.out + "/sched_samples.csv");
  printf("\nText and CSV: %s/sched_*.txt, sched_*.csv, sched_samples.csv\n", opt.out.c_str());
  if (any_failure) {
    fprintf(stderr, "bench_sched: some variants FAILED (see the tables)\n");
    return 3;
  }
  return 0;
}
