/* bench_core: costs of the libadapt runtime against the sequential loop,
 * OpenMP (libgomp) and oneTBB, all in one process and one run.
 *
 * Sections (docs/benchmarks-core.md explains each and quotes a run):
 *   overhead  extra cost per iteration on ONE worker against the plain loop:
 *             adapt_for at grain 1 and at the default grain, OpenMP
 *             schedule(dynamic,1) and static, TBB simple_partitioner grain 1
 *             and auto_partitioner; the default schedules also on short calls
 *             (2^14 iterations, about 6 us) where per-call costs show.
 *   daxpy     y += a*x on one worker: T1/Ts, in L2 and in DRAM.
 *   speedup   2 workers: a balanced compute-bound loop and a triangular
 *             (unbalanced) one; adapt_for, OpenMP static/dynamic/guided, TBB
 *             auto/simple, against the sequential loop.
 *   steal     steal round trip median (adapt_stats_steal_latency) after a
 *             2-worker run with many steals.
 *   idle      CPU time (getrusage, whole process, all threads) while the
 *             program sleeps 1 s between two 2-worker parallel regions; each
 *             runtime in a child process of its own.
 *
 * Method: every timed section alternates the implementations inside each
 * round (A/B interleaved, the order rotated from round to round), after one
 * untimed warm-up round that also checks every implementation's output
 * against the sequential loop's. Figures are medians over the rounds of
 * per-round paired differences or ratios against the sequential loop of the
 * same round, with the 25th-75th percentiles as spread. After each section
 * a "noise" line gives the share of the CPUs that other processes and the
 * hypervisor took meanwhile (/proc/stat), flagging runs not fit to quote.
 *
 * Output: a table on stdout; CSV in --out DIR (default
 * build/release/bench-results): core_samples.csv (every timed sample) and
 * core_summary.csv (one line per figure, with target and status).
 *
 * Other modes:
 *   --callgrind N   run each 1-worker implementation of the overhead loop on
 *                   N and 2N iterations between callgrind client requests
 *                   (zero / dump); bench/scripts/core_callgrind.sh runs it
 *                   under valgrind and divides the instruction counts.
 *   --idle-child R  (internal) the idle measurement for runtime R
 *                   (adapt|omp|tbb); prints "IDLE_CPU_NS <ns>".
 *   --quick         fewer rounds (smoke test, figures not meaningful).
 *   --sections LIST comma-separated subset of overhead,daxpy,speedup,steal,idle.
 *   --gap-ms MS     pause before each timed 2-worker sample so that every
 *                   runtime's idle threads are asleep when the next one
 *                   starts (default 10; the 1-worker sections need none).
 */
/* Every loop of this file starts on a 64-byte boundary: the overhead loop
 * runs about one iteration per cycle, where the position of the loop
 * relative to the fetch blocks alone changes its speed by up to 50% (seen
 * here: the same 8-instruction loop, two addresses, 0.38 vs 0.57 ns per
 * iteration). Aligning them all compares schedulers, not code placement. */
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
#include <valgrind/callgrind.h>

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static void die(const char *what, int err) {
  fprintf(stderr, "bench_core: %s: %s\n", what, adapt_strerror(err));
  exit(2);
}

static void *xmalloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes) != 0) {
    fprintf(stderr, "bench_core: out of memory (%zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}

static void adapt_start(int workers) {
  adapt_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.workers = workers;
  int rc = adapt_init(&cfg);
  if (rc != 0) die("adapt_init", rc);
  if (adapt_num_workers() != workers) {
    fprintf(stderr, "bench_core: asked for %d adapt workers, runtime has %d\n", workers,
            adapt_num_workers());
    exit(2);
  }
}

static void adapt_check(int rc) {
  if (rc != 0) die("adapt_for", rc);
}

/* ------------------------------------------------------------------ */
/* Options and results                                                 */

struct options {
  std::string out = "build/release/bench-results";
  std::set<std::string> sections = {"overhead", "daxpy", "speedup", "steal", "idle"};
  bool quick = false;
  long long gap_ns = 10 * 1000000LL;
};
static options opt;

struct sample {
  std::string section, kase, impl;
  int round;
  double n, seconds;
};
static std::vector<sample> samples;

struct figure {
  std::string section, metric, impl;
  double value, p25, p75;
  std::string unit, target, status;
};
static std::vector<figure> figures;

static void add_figure(const char *section, const std::string &metric, const std::string &impl,
                       const std::vector<double> &v, const char *unit, const char *target,
                       const char *status) {
  figure f{section,           metric, impl,   median(v), quantile(v, 0.25),
           quantile(v, 0.75), unit,   target, status};
  figures.push_back(f);
}

/* One implementation of a loop: runs it once, on n iterations (0: the
 * section's count). */
struct impl {
  std::string name;
  std::function<void()> run;
  double n;
  impl(std::string nm, std::function<void()> fn, double iterations = 0)
      : name(std::move(nm)), run(std::move(fn)), n(iterations) {}
};

/* Timings of alternate(): seconds[impl][round] and, when counters run,
 * counts[impl][round][event]. */
struct timings {
  std::vector<std::vector<double>> seconds;
  std::vector<std::vector<std::vector<long long>>> counts;
};

/* Runs `rounds` rounds of all implementations, alternating them and rotating
 * their order each round, after one untimed warm-up round during which
 * check(i) validates implementation i's output. Before each timed sample:
 * prepare(i), then a pause of gap_ns (0: none). pc: counters read around
 * each sample, or NULL. */
static timings alternate(const char *section, const char *kase, std::vector<impl> &impls,
                         int rounds, double n, long long gap_ns,
                         const std::function<void(size_t)> &prepare,
                         const std::function<void(size_t)> &check, perfctr *pc) {
  size_t m = impls.size();
  timings t;
  t.seconds.assign(m, std::vector<double>((size_t)rounds));
  if (pc)
    t.counts.assign(m, std::vector<std::vector<long long>>(
                           (size_t)rounds, std::vector<long long>((size_t)pc->nevents)));
  for (size_t i = 0; i < m; i++) {
    if (impls[i].n == 0) impls[i].n = n;
    if (prepare) prepare(i);
    impls[i].run();
    if (check) check(i);
  }
  for (int r = 0; r < rounds; r++) {
    for (size_t k = 0; k < m; k++) {
      size_t i = (k + (size_t)r) % m;
      if (prepare) prepare(i);
      if (gap_ns > 0) sleep_ns(gap_ns);
      if (pc) perfctr_start(pc);
      double t0 = now_s();
      impls[i].run();
      double t1 = now_s();
      if (pc) perfctr_stop(pc, t.counts[i][(size_t)r].data());
      t.seconds[i][(size_t)r] = t1 - t0;
      samples.push_back(sample{section, kase, impls[i].name, r, impls[i].n, t1 - t0});
    }
  }
  return t;
}

static int rounds_for(int full) { return opt.quick ? 3 : full; }

/* ------------------------------------------------------------------ */
/* Machine noise: how busy the other processes and the hypervisor kept the
 * CPUs while a section ran (noise_now / noise_shares, bench_util.hpp). */

/* Prints and records the share of the CPUs used by other processes and
 * stolen by the hypervisor since `a`. */
static void noise_report(const char *section, const noise_mark &a) {
  double others = 0, steal = 0, seconds = 0;
  if (!noise_shares(a, noise_now(), &others, &steal, &seconds)) return;
  printf("   noise: other processes used %.0f%% and the hypervisor stole %.0f%% of the %.0f CPUs"
         " during this section (%.1f s)%s\n",
         100 * others, 100 * steal, (double)sysconf(_SC_NPROCESSORS_ONLN), seconds,
         others + steal > 0.10 ? "  -- NOISY: re-run for figures to quote" : "");
  std::vector<double> o = {100 * others}, st = {100 * steal};
  add_figure(section, "CPU share used by other processes", "machine", o, "%", "", "");
  add_figure(section, "CPU share stolen by the hypervisor", "machine", st, "%", "", "");
}

/* ------------------------------------------------------------------ */
/* 1. Overhead per iteration on one worker                             */
/* The per-iteration work: one multiply-add on an element of an L2-resident
 * array (512 KiB). The index is masked so that one call runs many iterations
 * over the same array; the mask also keeps the compiler from vectorising the
 * plain loop (no gather in baseline x86-64), so every implementation runs the
 * same scalar code per iteration and the difference is the scheduler's. */

enum { OVH_ARRAY = 1 << 16 };
static const size_t OVH_MASK = OVH_ARRAY - 1;

struct ovh_ctx {
  double *a;
};

static inline void ovh_op(double *a, size_t i) {
  size_t k = i & OVH_MASK;
  a[k] = a[k] * 0.999999 + 1e-6;
}

static void ovh_body(size_t b, size_t e, void *ctx) {
  double *a = ((ovh_ctx *)ctx)->a;
  for (size_t i = b; i < e; i++) ovh_op(a, i);
}

static void ovh_plain(double *a, size_t n) {
  for (size_t i = 0; i < n; i++) ovh_op(a, i);
}

/* Each runtime's loop over [lo, hi). */
static void ovh_adapt(double *a, size_t lo, size_t hi, size_t grain) {
  ovh_ctx c = {a};
  adapt_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.grain = grain;
  adapt_check(adapt_for(lo, hi, ovh_body, &c, &attr));
}

/* firstprivate: the outlined loop keeps `a` in a register rather than
 * reloading it from the shared-variable block after every store. */
static void ovh_omp_dynamic1(double *a, size_t lo, size_t hi, int threads) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) firstprivate(a)
  for (size_t i = lo; i < hi; i++) ovh_op(a, i);
}

static void ovh_omp_static(double *a, size_t lo, size_t hi, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static) firstprivate(a)
  for (size_t i = lo; i < hi; i++) ovh_op(a, i);
}

static void ovh_tbb_simple1(tbb::task_arena &arena, double *a, size_t lo, size_t hi) {
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(lo, hi, 1),
        [a](const tbb::blocked_range<size_t> &r) {
          for (size_t i = r.begin(); i != r.end(); i++) ovh_op(a, i);
        },
        tbb::simple_partitioner());
  });
}

static void ovh_tbb_auto(tbb::task_arena &arena, double *a, size_t lo, size_t hi) {
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(lo, hi),
        [a](const tbb::blocked_range<size_t> &r) {
          for (size_t i = r.begin(); i != r.end(); i++) ovh_op(a, i);
        },
        tbb::auto_partitioner());
  });
}

/* Runs [0, n) as n/m calls of m iterations, one after the other: the same
 * iterations as one call, with the per-call costs of n/m loops. */
template <class F>
static void ovh_calls(size_t n, size_t m, F loop) {
  for (size_t lo = 0; lo < n; lo += m) loop(lo, std::min(n, lo + m));
}

/* Iterations per call of the short-call rows: about 6 us of work. */
enum { OVH_SHORT_CALL = 1 << 14 };

/* The 1-worker implementations, shared by the timed section and the
 * callgrind mode. scale: iterations of the plain loop per run; the slow
 * fine-grained ones run fewer unless same_n (per-iteration figures compare
 * them). short_calls: add the default-schedule rows that run the same
 * iterations as calls of OVH_SHORT_CALL iterations (per-call costs). */
static std::vector<impl> ovh_impls(double *a, size_t scale, bool same_n, bool short_calls,
                                   tbb::task_arena &arena1) {
  size_t n = scale, n_omp = same_n ? scale : scale / 2, n_tbb = same_n ? scale : scale / 8;
  const size_t m = OVH_SHORT_CALL;
  std::vector<impl> v = {
      {"plain loop", [=] { ovh_plain(a, n); }, (double)n},
      {"adapt grain 1", [=] { ovh_adapt(a, 0, n, 1); }, (double)n},
      {"adapt default grain", [=] { ovh_adapt(a, 0, n, 0); }, (double)n},
      {"omp dynamic,1", [=] { ovh_omp_dynamic1(a, 0, n_omp, 1); }, (double)n_omp},
      {"omp static", [=] { ovh_omp_static(a, 0, n, 1); }, (double)n},
      {"tbb simple grain 1", [=, &arena1] { ovh_tbb_simple1(arena1, a, 0, n_tbb); }, (double)n_tbb},
      {"tbb auto", [=, &arena1] { ovh_tbb_auto(arena1, a, 0, n); }, (double)n},
  };
  if (same_n) /* callgrind: a grain near the one calibrated natively (~2 us chunks) */
    v.push_back({"adapt grain 4096", [=] { ovh_adapt(a, 0, n, 4096); }, (double)n});
  if (short_calls) {
    v.push_back({"adapt default, 2^14/call",
                 [=] { ovh_calls(n, m, [=](size_t lo, size_t hi) { ovh_adapt(a, lo, hi, 0); }); },
                 (double)n});
    v.push_back(
        {"omp static, 2^14/call",
         [=] { ovh_calls(n, m, [=](size_t lo, size_t hi) { ovh_omp_static(a, lo, hi, 1); }); },
         (double)n});
    v.push_back(
        {"tbb auto, 2^14/call",
         [=, &arena1] {
           ovh_calls(n, m, [=, &arena1](size_t lo, size_t hi) { ovh_tbb_auto(arena1, a, lo, hi); });
         },
         (double)n});
  }
  return v;
}

static void fill(double *a, size_t n, double v) {
  for (size_t i = 0; i < n; i++) a[i] = v;
}

/* Debian's PAPI 7.0 (libpfm4) predates Zen4/Zen5: on an AMD family >= 0x19
 * CPU with LIBPFM_FORCE_PMU unset, use the Zen3 PMU description (the events
 * used here are the same) and say so. */
static void papi_force_pmu_for_zen(void) {
  if (getenv("LIBPFM_FORCE_PMU")) return;
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[256];
  bool amd = false;
  int family = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "vendor_id", 9) == 0) amd = strstr(line, "AuthenticAMD") != NULL;
    if (strncmp(line, "cpu family", 10) == 0) {
      const char *c = strchr(line, ':');
      family = c ? atoi(c + 1) : 0;
      break;
    }
  }
  fclose(f);
  if (amd && family >= 0x19) {
    setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3", 0);
    printf("   note: AMD family %#x CPU: LIBPFM_FORCE_PMU=amd64_fam19h_zen3 set for PAPI"
           " (Debian's libpfm4 does not know this PMU; set LIBPFM_FORCE_PMU yourself to"
           " override)\n",
           family);
  }
}

static void section_overhead(tbb::task_arena &arena1) {
  const size_t n = (size_t)1 << 20; /* iterations per sample of the plain loop */
  double *a = (double *)xmalloc(OVH_ARRAY * sizeof(double));
  double *ref = (double *)xmalloc(OVH_ARRAY * sizeof(double));
  perfctr pc;
  papi_force_pmu_for_zen();
  bool counters = perfctr_init(&pc, "PAPI_TOT_CYC,PAPI_TOT_INS") == 0;
  std::vector<impl> impls = ovh_impls(a, n, false, true, arena1);
  int rounds = rounds_for(151);
  auto t = alternate(
      "overhead", "1 worker: a[i&mask]=a[i&mask]*c+d", impls, rounds, (double)n, 0,
      [&](size_t) { fill(a, OVH_ARRAY, 1.5); },
      [&](size_t i) {
        fill(ref, OVH_ARRAY, 1.5);
        ovh_plain(ref, (size_t)impls[i].n);
        if (memcmp(a, ref, OVH_ARRAY * sizeof(double)) != 0) {
          fprintf(stderr, "bench_core: overhead: %s gives a wrong result\n", impls[i].name.c_str());
          exit(3);
        }
      },
      counters ? &pc : NULL);
  printf("\n== 1. Overhead per iteration, ONE worker (adapt workers=1, OpenMP num_threads(1),"
         " TBB arena of 1)\n");
  printf("   %d rounds; 2^20 iterations per sample (omp dynamic,1: 2^19, tbb simple: 2^17) in"
         " one call, or in 64 calls of 2^14\n   (\"2^14/call\" rows, about 6 us each); median"
         " [p25 p75] over the rounds of the difference with the\n   plain loop's time per"
         " iteration in the same round\n",
         rounds);
  if (!counters) printf("   (no hardware counters: %s)\n", pc.message);
  printf("   %-25s %8s %22s %23s  %-22s %s\n", "implementation", "ns/iter", "extra ns/iter",
         "ratio to plain", "target", counters ? "extra cycles/iter  extra instr/iter" : "");
  for (size_t i = 0; i < impls.size(); i++) {
    std::vector<double> per, extra, ratio, cyc, ins;
    for (int r = 0; r < rounds; r++) {
      size_t ru = (size_t)r;
      double pi = t.seconds[i][ru] / impls[i].n, p0 = t.seconds[0][ru] / impls[0].n;
      per.push_back(pi * 1e9);
      extra.push_back((pi - p0) * 1e9);
      ratio.push_back(pi / p0);
      if (counters) {
        cyc.push_back((double)t.counts[i][ru][0] / impls[i].n -
                      (double)t.counts[0][ru][0] / impls[0].n);
        ins.push_back((double)t.counts[i][ru][1] / impls[i].n -
                      (double)t.counts[0][ru][1] / impls[0].n);
      }
    }
    const char *target = "";
    const char *status = "";
    if (impls[i].name == "adapt grain 1") {
      target = "<= 2 ns/iter";
      status = median(extra) <= 2.0 ? "PASS" : "MISS";
    } else if (impls[i].name == "adapt default grain" ||
               impls[i].name == "adapt default, 2^14/call") {
      target = "<= 2% (ratio <= 1.02)";
      status = median(ratio) <= 1.02 ? "PASS" : "MISS";
    }
    char tgt[64];
    snprintf(tgt, sizeof tgt, "%s %s", target, status);
    printf("   %-25s %8.3f %7.3f [%6.3f %6.3f] %7.4f [%6.4f %6.4f]  %-22s", impls[i].name.c_str(),
           median(per), median(extra), quantile(extra, 0.25), quantile(extra, 0.75), median(ratio),
           quantile(ratio, 0.25), quantile(ratio, 0.75), tgt);
    if (counters) printf(" %8.2f %17.2f", median(cyc), median(ins));
    printf("\n");
    add_figure("overhead", "time per iteration", impls[i].name, per, "ns", "", "");
    if (i > 0) {
      bool ratio_target =
          impls[i].name == "adapt default grain" || impls[i].name == "adapt default, 2^14/call";
      add_figure("overhead", "extra time per iteration", impls[i].name, extra, "ns",
                 ratio_target ? "" : target, ratio_target ? "" : status);
      add_figure("overhead", "time ratio to plain loop", impls[i].name, ratio, "ratio",
                 ratio_target ? target : "", ratio_target ? status : "");
      if (counters) {
        add_figure("overhead", "extra cycles per iteration (PAPI_TOT_CYC)", impls[i].name, cyc,
                   "cycles", "", "");
        add_figure("overhead", "extra instructions per iteration (PAPI_TOT_INS)", impls[i].name,
                   ins, "instructions", "", "");
      }
    }
  }
  if (counters) perfctr_destroy(&pc);
  free(a);
  free(ref);
}

/* ------------------------------------------------------------------ */
/* 2. daxpy T1/Ts                                                      */
/* The same out-of-line kernel runs the plain loop and every adapt chunk. */

__attribute__((noinline)) static void daxpy_range(double *__restrict y, const double *__restrict x,
                                                  double alpha, size_t b, size_t e) {
  for (size_t i = b; i < e; i++) y[i] += alpha * x[i];
}

struct daxpy_ctx {
  double *y;
  const double *x;
  double alpha;
};

static void daxpy_body(size_t b, size_t e, void *ctx) {
  daxpy_ctx *c = (daxpy_ctx *)ctx;
  daxpy_range(c->y, c->x, c->alpha, b, e);
}

static void section_daxpy(tbb::task_arena &arena1) {
  struct dcase {
    const char *name;
    size_t n, calls;
    int rounds;
  } cases[] = {
      {"n=2^15 (512 KiB, L2), 32 calls/sample", (size_t)1 << 15, 32, 61},
      {"n=2^23 (128 MiB, DRAM), 1 call/sample", (size_t)1 << 23, 1, 21},
  };
  printf("\n== 2. daxpy y += a*x, ONE worker: T1/Ts (time ratio to the sequential loop)\n");
  printf("   %-40s %-22s %12s %22s\n", "case", "implementation", "ms/sample", "T1/Ts [p25 p75]");
  for (const dcase &dc : cases) {
    size_t n = dc.n, calls = dc.calls;
    double *x = (double *)xmalloc(n * sizeof(double));
    double *y = (double *)xmalloc(n * sizeof(double));
    double *yref = (double *)xmalloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++) x[i] = (double)(i % 1000) * 1e-3;
    const double alpha = 0.5;
    auto init_y = [&] {
      for (size_t i = 0; i < n; i++) y[i] = 1.0;
    };
    init_y();
    for (size_t c = 0; c < calls; c++) daxpy_range(y, x, alpha, 0, n);
    memcpy(yref, y, n * sizeof(double));
    std::vector<impl> impls = {
        {"sequential loop",
         [&] {
           for (size_t c = 0; c < calls; c++) daxpy_range(y, x, alpha, 0, n);
         }},
        {"adapt default grain",
         [&] {
           daxpy_ctx ctx = {y, x, alpha};
           for (size_t c = 0; c < calls; c++) adapt_check(adapt_for(0, n, daxpy_body, &ctx, NULL));
         }},
        {"omp static",
         [&] {
           for (size_t c = 0; c < calls; c++) {
#pragma omp parallel for num_threads(1) schedule(static) firstprivate(x, y, alpha)
             for (size_t i = 0; i < n; i++) y[i] += alpha * x[i];
           }
         }},
        {"tbb auto",
         [&] {
           for (size_t c = 0; c < calls; c++)
             arena1.execute([&] {
               tbb::parallel_for(tbb::blocked_range<size_t>(0, n),
                                 [&](const tbb::blocked_range<size_t> &r) {
                                   daxpy_range(y, x, alpha, r.begin(), r.end());
                                 });
             });
         }},
    };
    int rounds = rounds_for(dc.rounds);
    auto t = alternate(
        "daxpy", dc.name, impls, rounds, (double)(n * calls), 0, [&](size_t) { init_y(); },
        [&](size_t i) {
          if (memcmp(y, yref, n * sizeof(double)) != 0) {
            fprintf(stderr, "bench_core: daxpy: %s gives a wrong result\n", impls[i].name.c_str());
            exit(3);
          }
        },
        NULL);
    for (size_t i = 0; i < impls.size(); i++) {
      std::vector<double> ms, ratio;
      for (int r = 0; r < rounds; r++) {
        ms.push_back(t.seconds[i][(size_t)r] * 1e3);
        ratio.push_back(t.seconds[i][(size_t)r] / t.seconds[0][(size_t)r]);
      }
      printf("   %-40s %-22s %12.3f %8.4f [%6.4f %6.4f]\n", dc.name, impls[i].name.c_str(),
             median(ms), median(ratio), quantile(ratio, 0.25), quantile(ratio, 0.75));
      add_figure("daxpy", std::string("ms per sample, ") + dc.name, impls[i].name, ms, "ms", "",
                 "");
      if (i > 0)
        add_figure("daxpy", std::string("T1/Ts, ") + dc.name, impls[i].name, ratio, "ratio", "",
                   "");
    }
    free(x);
    free(y);
    free(yref);
  }
}

/* ------------------------------------------------------------------ */
/* 3./4. Compute-bound loops on 2 workers                              */
/* Iteration i runs steps(i) multiply-adds in one dependency chain (about
 * 6 cycles each, no memory traffic) and writes out[i]. Balanced: every
 * iteration 256 steps. Triangular: 1 + 512*i/n steps, the same total. */

enum { CB_STEPS = 256 };

struct cb_ctx {
  double *out;
  size_t n;
  int triangular;
};

static inline int cb_steps(size_t i, size_t n, int triangular) {
  return triangular ? 1 + (int)(((uint64_t)2 * CB_STEPS * i) / n) : CB_STEPS;
}

static inline double cb_op(size_t i, size_t n, int triangular) {
  double v = 1.0 + (double)(i & 1023) * 1e-6;
  int k = cb_steps(i, n, triangular);
  for (int j = 0; j < k; j++) v = v * 0.9999999 + 1e-7;
  return v;
}

static void cb_body(size_t b, size_t e, void *ctx) {
  cb_ctx *c = (cb_ctx *)ctx;
  for (size_t i = b; i < e; i++) c->out[i] = cb_op(i, c->n, c->triangular);
}

static void cb_seq(double *out, size_t n, int tri) {
  for (size_t i = 0; i < n; i++) out[i] = cb_op(i, n, tri);
}

static void cb_adapt(double *out, size_t n, int tri, size_t grain) {
  cb_ctx c = {out, n, tri};
  adapt_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.grain = grain;
  adapt_check(adapt_for(0, n, cb_body, &c, &attr));
}

static void cb_omp_static(double *out, size_t n, int tri, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (size_t i = 0; i < n; i++) out[i] = cb_op(i, n, tri);
}
static void cb_omp_dynamic(double *out, size_t n, int tri, int threads) {
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (size_t i = 0; i < n; i++) out[i] = cb_op(i, n, tri);
}
static void cb_omp_guided(double *out, size_t n, int tri, int threads) {
#pragma omp parallel for num_threads(threads) schedule(guided)
  for (size_t i = 0; i < n; i++) out[i] = cb_op(i, n, tri);
}

static void cb_tbb(tbb::task_arena &arena, double *out, size_t n, int tri, bool simple) {
  arena.execute([&] {
    auto body = [=](const tbb::blocked_range<size_t> &r) {
      for (size_t i = r.begin(); i != r.end(); i++) out[i] = cb_op(i, n, tri);
    };
    if (simple)
      tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1), body, tbb::simple_partitioner());
    else
      tbb::parallel_for(tbb::blocked_range<size_t>(0, n), body, tbb::auto_partitioner());
  });
}

/* Sum of the per-worker counters that matter for the steal figures. */
struct steal_counts {
  uint64_t posted, steals, timeouts;
};

static steal_counts total_steals(void) {
  steal_counts s = {0, 0, 0};
  for (int w = 0; w < adapt_num_workers(); w++) {
    adapt_worker_stats st;
    if (adapt_stats_get(w, &st) == 0) {
      s.posted += st.requests_posted;
      s.steals += st.steals;
      s.timeouts += st.requests_timeout;
    }
  }
  return s;
}

/* Reads the steal latency and counters since the last adapt_stats_reset,
 * records them under `label`, and returns a one-line description. */
static std::string steal_figures(const std::string &label) {
  double med = 0, p90 = 0;
  int rc = adapt_stats_steal_latency(&med, &p90);
  steal_counts c = total_steals();
  char buf[256];
  if (rc != 0) {
    snprintf(buf, sizeof buf, "no latency sample (%s); %llu requests, %llu steals, %llu timeouts",
             adapt_strerror(rc), (unsigned long long)c.posted, (unsigned long long)c.steals,
             (unsigned long long)c.timeouts);
    figures.push_back(
        figure{"steal", "round trip median, " + label, "adapt", 0, 0, 0, "ns", "", "NO DATA"});
  } else {
    snprintf(buf, sizeof buf,
             "median %.0f ns, p90 %.0f ns; %llu requests, %llu steals, %llu timeouts", med, p90,
             (unsigned long long)c.posted, (unsigned long long)c.steals,
             (unsigned long long)c.timeouts);
    figures.push_back(
        figure{"steal", "round trip median, " + label, "adapt", med, med, p90, "ns", "", ""});
    figures.push_back(
        figure{"steal", "round trip p90, " + label, "adapt", p90, p90, p90, "ns", "", ""});
  }
  figures.push_back(figure{"steal", "requests posted, " + label, "adapt", (double)c.posted,
                           (double)c.posted, (double)c.posted, "count", "", ""});
  figures.push_back(figure{"steal", "successful steals, " + label, "adapt", (double)c.steals,
                           (double)c.steals, (double)c.steals, "count", "", ""});
  figures.push_back(figure{"steal", "request timeouts, " + label, "adapt", (double)c.timeouts,
                           (double)c.timeouts, (double)c.timeouts, "count", "", ""});
  return buf;
}

static std::vector<std::string> steal_lines;

static void section_speedup(tbb::task_arena &arena2) {
  const size_t n = (size_t)1 << 16;
  double *out = (double *)xmalloc(n * sizeof(double));
  double *ref = (double *)xmalloc(n * sizeof(double));
  printf("\n== 4. 2-worker speedup Ts/Tp of compute-bound loops (n = %zu, 256 chained"
         " multiply-adds per iteration on average)\n",
         n);
  printf("   %-12s %-22s %10s %24s  %s\n", "loop", "implementation", "ms", "speedup [p25 p75]",
         "target");
  for (int tri = 0; tri <= 1; tri++) {
    const char *loop = tri ? "triangular" : "balanced";
    cb_seq(ref, n, tri);
    std::vector<impl> impls = {
        {"sequential loop", [=] { cb_seq(out, n, tri); }},
        {"adapt default grain", [=] { cb_adapt(out, n, tri, 0); }},
        {"omp static", [=] { cb_omp_static(out, n, tri, 2); }},
        {"omp dynamic", [=] { cb_omp_dynamic(out, n, tri, 2); }},
        {"omp guided", [=] { cb_omp_guided(out, n, tri, 2); }},
        {"tbb auto", [=, &arena2] { cb_tbb(arena2, out, n, tri, false); }},
        {"tbb simple grain 1", [=, &arena2] { cb_tbb(arena2, out, n, tri, true); }},
    };
    int rounds = rounds_for(21);
    adapt_stats_reset();
    auto t = alternate(
        "speedup", loop, impls, rounds, (double)n, opt.gap_ns,
        [&](size_t) { memset(out, 0xff, n * sizeof(double)); },
        [&](size_t i) {
          if (memcmp(out, ref, n * sizeof(double)) != 0) {
            fprintf(stderr, "bench_core: speedup %s: %s gives a wrong result\n", loop,
                    impls[i].name.c_str());
            exit(3);
          }
        },
        NULL);
    char label[96];
    snprintf(label, sizeof label, "%s loop, default grain, %d timed + 1 warm-up regions", loop,
             rounds);
    steal_lines.push_back(std::string(label) + ": " + steal_figures(label));
    for (size_t i = 0; i < impls.size(); i++) {
      std::vector<double> ms, sp;
      for (int r = 0; r < rounds; r++) {
        ms.push_back(t.seconds[i][(size_t)r] * 1e3);
        sp.push_back(t.seconds[0][(size_t)r] / t.seconds[i][(size_t)r]);
      }
      const char *target = "", *status = "";
      if (impls[i].name == "adapt default grain") {
        target = tri ? ">= 1.85" : ">= 1.9";
        status = median(sp) >= (tri ? 1.85 : 1.9) ? "PASS" : "MISS";
      }
      printf("   %-12s %-22s %10.2f %8.3f [%6.3f %6.3f]  %s %s\n", loop, impls[i].name.c_str(),
             median(ms), median(sp), quantile(sp, 0.25), quantile(sp, 0.75), target, status);
      add_figure("speedup", std::string("ms, ") + loop, impls[i].name, ms, "ms", "", "");
      if (i > 0)
        add_figure("speedup", std::string("speedup Ts/Tp, 2 workers, ") + loop, impls[i].name, sp,
                   "ratio", target, status);
    }
  }
  free(out);
  free(ref);
}

/* Many steals: regions of 4096 short iterations (8 chained steps, about
 * 20 ns) at grain 1, so that the victim polls every iteration and the round
 * trip measures the protocol rather than the wait for a steal point. */
static void section_steal(void) {
  const size_t n = 4096;
  const int regions = opt.quick ? 100 : 2000;
  double *out = (double *)xmalloc(n * sizeof(double));
  printf("\n== 3. Steal round trip, 2 workers (adapt_stats_steal_latency: request posted to"
         " reply received)\n");
  adapt_stats_reset();
  struct fine {
    static void body(size_t b, size_t e, void *ctx) {
      double *o = (double *)ctx;
      for (size_t i = b; i < e; i++) {
        double v = 1.0 + (double)i * 1e-9;
        for (int j = 0; j < 8; j++) v = v * 0.9999999 + 1e-7;
        o[i] = v;
      }
    }
  };
  adapt_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.grain = 1;
  double t0 = now_s();
  for (int r = 0; r < regions; r++) adapt_check(adapt_for(0, n, fine::body, out, &attr));
  double t1 = now_s();
  char label[96];
  snprintf(label, sizeof label, "%d regions x %zu iterations (~20 ns), grain 1", regions, n);
  std::string line = steal_figures(label);
  printf("   %s (%.0f ms): %s\n", label, (t1 - t0) * 1e3, line.c_str());
  printf("   the same counters over the speedup section's adapt runs (the victim polls once per"
         " chunk):\n");
  for (const std::string &s : steal_lines) printf("   %s\n", s.c_str());
  free(out);
}

/* ------------------------------------------------------------------ */
/* 5. Idle CPU between two regions                                     */

static int idle_child(const char *rt) {
  const size_t n = 4096;
  double *out = (double *)xmalloc(n * sizeof(double));
  std::function<void()> region;
  tbb::task_arena *arena = NULL;
  if (strcmp(rt, "adapt") == 0) {
    adapt_start(2);
    region = [=] { cb_adapt(out, n, 0, 0); };
  } else if (strcmp(rt, "omp") == 0) {
    region = [=] { cb_omp_static(out, n, 0, 2); };
  } else if (strcmp(rt, "tbb") == 0) {
    arena = new tbb::task_arena(2);
    region = [=] { cb_tbb(*arena, out, n, 0, false); };
  } else {
    fprintf(stderr, "bench_core: --idle-child adapt|omp|tbb\n");
    return 2;
  }
  region();
  double c0 = process_cpu_s();
  sleep_ns(1000000000LL);
  double c1 = process_cpu_s();
  region();
  printf("IDLE_CPU_NS %.0f\n", (c1 - c0) * 1e9);
  fflush(stdout);
  if (strcmp(rt, "adapt") == 0) adapt_finalize();
  delete arena;
  free(out);
  return 0;
}

static double run_idle_child(const char *self, const char *rt) {
  std::string cmd = std::string("'") + self + "' --idle-child " + rt;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char line[256];
  double ns = -1;
  while (fgets(line, sizeof line, p))
    if (strncmp(line, "IDLE_CPU_NS ", 12) == 0) ns = atof(line + 12);
  int st = pclose(p);
  if (st != 0) return -1;
  return ns;
}

static void section_idle(const char *self) {
  printf("\n== 5. CPU time (getrusage, whole process) while sleeping 1 s between two 2-worker"
         " regions; one child process per run\n");
  struct {
    const char *rt, *name;
    int runs;
  } rts[] = {
      {"adapt", "adapt", opt.quick ? 1 : 3}, {"omp", "omp static", 1}, {"tbb", "tbb auto", 1}};
  for (auto &r : rts) {
    std::vector<double> ms;
    for (int k = 0; k < r.runs; k++) {
      double ns = run_idle_child(self, r.rt);
      if (ns < 0) {
        fprintf(stderr, "bench_core: idle child %s failed\n", r.rt);
        exit(3);
      }
      ms.push_back(ns * 1e-6);
    }
    bool is_adapt = strcmp(r.rt, "adapt") == 0;
    const char *status = is_adapt ? (median(ms) <= 20.0 ? "PASS" : "MISS") : "";
    printf("   %-12s %8.3f ms CPU during the 1 s sleep (median of %d run%s, min %.3f max %.3f)  %s"
           " %s\n",
           r.name, median(ms), r.runs, r.runs > 1 ? "s" : "",
           *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()),
           is_adapt ? "target <= 20 ms" : "", status);
    add_figure("idle", "CPU time during 1 s sleep between regions, 2 workers", r.name, ms, "ms",
               is_adapt ? "<= 20 ms" : "", status);
  }
}

/* ------------------------------------------------------------------ */
/* Callgrind mode                                                      */

static int callgrind_mode(size_t n) {
  adapt_start(1);
  tbb::task_arena arena1(1);
  arena1.initialize();
  double *a = (double *)xmalloc(OVH_ARRAY * sizeof(double));
  fill(a, OVH_ARRAY, 1.5);
  size_t sizes[2] = {n, 2 * n};
  std::vector<impl> warm = ovh_impls(a, n, true, false, arena1);
  for (impl &w : warm) {
    w.run(); /* lazy initialisation and first-touch paths, not counted */
    for (size_t s : sizes) {
      std::vector<impl> one = ovh_impls(a, s, true, false, arena1);
      for (impl &x : one) {
        if (x.name != w.name) continue;
        char label[128];
        snprintf(label, sizeof label, "core:%s:n=%zu", x.name.c_str(), s);
        CALLGRIND_ZERO_STATS;
        x.run();
        CALLGRIND_DUMP_STATS_AT(label);
      }
    }
  }
  if (!RUNNING_ON_VALGRIND)
    fprintf(stderr, "bench_core: --callgrind does nothing useful outside valgrind"
                    " (bench/scripts/core_callgrind.sh runs it)\n");
  free(a);
  adapt_finalize();
  return 0;
}

/* ------------------------------------------------------------------ */
/* Environment, affinity and CSV                                       */

/* The runtimes' thread pools are created before adapt binds the main thread
 * (a new thread inherits its creator's affinity): this checks that the
 * OpenMP and TBB workers may still run on every CPU. */
static void check_affinity(tbb::task_arena &arena2) {
  int main_cpus = cpus_allowed();
  int omp_min = 1 << 20, tbb_min = 1 << 20;
#pragma omp parallel num_threads(2) reduction(min : omp_min)
  {
    if (omp_get_thread_num() != 0) omp_min = cpus_allowed();
  }
  /* The TBB worker joins an arena only after a wake-up delay: retry until it
   * has run a task (a few ms at most). */
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
  printf("   affinity: main thread (adapt worker 0) may run on %d CPU(s); OpenMP worker on %s;"
         " TBB worker on %s\n",
         main_cpus, omp_min == 1 << 20 ? "?" : std::to_string(omp_min).c_str(),
         tbb_min == 1 << 20 ? "? (did not join)" : std::to_string(tbb_min).c_str());
  if ((omp_min != 1 << 20 && omp_min < 2) || (tbb_min != 1 << 20 && tbb_min < 2))
    printf("   WARNING: a peer runtime's worker is confined to one CPU; its speedups are not"
           " meaningful\n");
}

static void write_csv(const std::string &when, const std::string &host) {
  mkdirs(opt.out);
  std::string p1 = opt.out + "/core_samples.csv", p2 = opt.out + "/core_summary.csv";
  FILE *f = fopen(p1.c_str(), "w");
  if (!f) {
    perror(p1.c_str());
    exit(2);
  }
  fprintf(f, "date,host,section,case,implementation,round,iterations,seconds\n");
  for (const sample &s : samples)
    fprintf(f, "%s,%s,%s,%s,%s,%d,%.0f,%.9f\n", csv_quote(when).c_str(), csv_quote(host).c_str(),
            s.section.c_str(), csv_quote(s.kase).c_str(), csv_quote(s.impl).c_str(), s.round, s.n,
            s.seconds);
  fclose(f);
  f = fopen(p2.c_str(), "w");
  if (!f) {
    perror(p2.c_str());
    exit(2);
  }
  fprintf(f, "date,host,section,metric,implementation,median,p25,p75,unit,target,status\n");
  for (const figure &g : figures)
    fprintf(f, "%s,%s,%s,%s,%s,%.6g,%.6g,%.6g,%s,%s,%s\n", csv_quote(when).c_str(),
            csv_quote(host).c_str(), g.section.c_str(), csv_quote(g.metric).c_str(),
            csv_quote(g.impl).c_str(), g.value, g.p25, g.p75, g.unit.c_str(),
            csv_quote(g.target).c_str(), g.status.c_str());
  fclose(f);
  printf("\nCSV: %s, %s\n", p1.c_str(), p2.c_str());
}

static void usage(void) {
  fprintf(stderr,
          "usage: bench_core [--out DIR] [--quick] [--sections overhead,daxpy,speedup,steal,idle]"
          " [--gap-ms MS]\n"
          "       bench_core --callgrind N     (under valgrind --tool=callgrind)\n");
  exit(2);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      opt.out = argv[++i];
    } else if (a == "--quick") {
      opt.quick = true;
    } else if (a == "--gap-ms" && i + 1 < argc) {
      opt.gap_ns = (long long)(atof(argv[++i]) * 1e6);
    } else if (a == "--sections" && i + 1 < argc) {
      opt.sections.clear();
      std::string l = argv[++i];
      size_t p = 0;
      while (p <= l.size()) {
        size_t q = l.find(',', p);
        if (q == std::string::npos) q = l.size();
        std::string s = l.substr(p, q - p);
        if (s != "overhead" && s != "daxpy" && s != "speedup" && s != "steal" && s != "idle")
          usage();
        opt.sections.insert(s);
        p = q + 1;
      }
    } else if (a == "--callgrind" && i + 1 < argc) {
      long long n = atoll(argv[++i]);
      if (n <= 0) usage();
      return callgrind_mode((size_t)n);
    } else if (a == "--idle-child" && i + 1 < argc) {
      return idle_child(argv[++i]);
    } else {
      usage();
    }
  }
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) {
    perror("readlink /proc/self/exe");
    return 2;
  }
  self[len] = 0;

  struct utsname un;
  uname(&un);
  std::string when = utc_now(), host = un.nodename;
  printf("bench_core: libadapt %d.%d vs OpenMP %d (libgomp) vs oneTBB %s\n", ADAPT_VERSION_MAJOR,
         ADAPT_VERSION_MINOR, _OPENMP, TBB_runtime_version());
  printf("   %s, host %s, %s, %ld CPUs online, kernel %s, compiler gcc %s\n", when.c_str(),
         host.c_str(), cpu_model().c_str(), sysconf(_SC_NPROCESSORS_ONLN), un.release, __VERSION__);
  printf("   load average at start: %s\n", loadavg().c_str());
  for (const char *v : {"ADAPT_WORKERS", "ADAPT_GRAIN", "ADAPT_BIND", "ADAPT_SPIN_US",
                        "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OMP_PROC_BIND"})
    if (getenv(v)) printf("   note: %s=%s is set\n", v, getenv(v));
  if (opt.quick) printf("   --quick: 3 rounds per section, figures NOT meaningful\n");

  /* Create the OpenMP and TBB pools (2 threads) before adapt binds the main
   * thread: threads inherit the affinity of the thread that creates them. */
  tbb::task_arena arena1(1), arena2(2);
  arena1.initialize();
  arena2.initialize();
  {
    std::vector<double> w((size_t)1 << 12);
    cb_omp_static(w.data(), w.size(), 0, 2);
    cb_tbb(arena2, w.data(), w.size(), 0, false);
  }

  bool one = opt.sections.count("overhead") || opt.sections.count("daxpy");
  bool two = opt.sections.count("speedup") || opt.sections.count("steal");
  if (one) {
    adapt_start(1);
    if (opt.sections.count("overhead")) {
      noise_mark m = noise_now();
      section_overhead(arena1);
      noise_report("overhead", m);
    }
    if (opt.sections.count("daxpy")) {
      noise_mark m = noise_now();
      section_daxpy(arena1);
      noise_report("daxpy", m);
    }
    adapt_finalize();
  }
  if (two) {
    adapt_start(2);
    printf("\n   adapt: %d workers", adapt_num_workers());
    printf(" (bound to PU %d and %d)\n", adapt_worker_pu(0), adapt_worker_pu(1));
    check_affinity(arena2);
    if (opt.sections.count("speedup")) {
      noise_mark m = noise_now();
      section_speedup(arena2);
      noise_report("speedup", m);
    }
    if (opt.sections.count("steal")) {
      noise_mark m = noise_now();
      section_steal();
      noise_report("steal", m);
    }
    adapt_finalize();
  }
  if (opt.sections.count("idle")) section_idle(self);

  printf("\n   load average at end: %s\n", loadavg().c_str());
  printf("\nSummary of targets:\n");
  for (const figure &g : figures)
    if (!g.target.empty())
      printf("   %-9s %-44s %-20s %10.4g %-5s target %-22s %s\n", g.section.c_str(),
             g.metric.c_str(), g.impl.c_str(), g.value, g.unit.c_str(), g.target.c_str(),
             g.status.c_str());
  write_csv(when, host);
  return 0;
}
