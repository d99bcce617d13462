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
 * Method (bench/common/harness.hpp): every timed section alternates the
 * implementations inside each round, after one untimed warm-up round that
 * also checks every implementation's output against the sequential loop's
 * (a wrong result stops the run, exit code 3). Figures are medians over the
 * rounds of per-round paired differences or ratios against the sequential
 * loop of the same round, with the 25th-75th percentiles as spread. After
 * each section a "noise" line gives the share of the CPUs that other
 * processes and the hypervisor took meanwhile (/proc/stat). The loops are
 * in bench/kernels (overhead, daxpy, compute).
 *
 * Output: a table on stdout; CSV in --out DIR (default
 * build/release/bench-results): core_samples.csv (every timed sample) and
 * core_summary.csv (one line per figure, with target and status); with
 * --report, core_report.md (bench/scripts/core_report.py).
 *
 * Other modes:
 *   --callgrind N   run each 1-worker implementation of the overhead loop on
 *                   N and 2N iterations between callgrind client requests;
 *                   bench/scripts/callgrind.sh runs it under valgrind and
 *                   divides the instruction counts.
 *   --idle-child R  (internal) the idle measurement for runtime R
 *                   (adapt|omp|tbb); prints "IDLE_CPU_NS <ns>".
 *   --quick         fewer rounds (smoke test, figures not meaningful).
 *   --sections LIST comma-separated subset of overhead,daxpy,speedup,steal,idle.
 *   --workers P     the speedup and steal sections on P workers (default
 *                   2; targets are checked at 2 only; bench/scripts/scaling.py).
 *   --gap-ms MS     pause before each timed 2-worker sample so that every
 *                   runtime's idle threads are asleep when the next one
 *                   starts (default 10; the 1-worker sections need none).
 */
#include <adapt/adapt.h>
#include <adapt/loop.h>

#include "cli.hpp"
#include "compute.hpp"
#include "daxpy.hpp"
#include "harness.hpp"
#include "output.hpp"
#include "overhead.hpp"
#include "peers.hpp"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

struct options {
  std::string out = "build/release/bench-results";
  std::set<std::string> sections = {"overhead", "daxpy", "speedup", "steal", "idle"};
  bool quick = false, report = false;
  long long gap_ns = 10 * 1000000LL;
  size_t callgrind_n = 0;
  std::string idle_child;
  int workers = 2; /* --workers: the speedup and steal sections' count */
};
static options opt;
static std::unique_ptr<peer_pools> pools;

static int rounds_for(int full) { return opt.quick ? 3 : full; }

/* ------------------------------------------------------------------ */
/* Summary figures (core_summary.csv)                                  */

struct figure {
  std::string section, metric, impl;
  double value, p25, p75;
  std::string unit, target, status;
};
static std::vector<figure> figures;

static void add_figure(const char *section, const std::string &metric, const std::string &impl,
                       const std::vector<double> &v, const char *unit, const char *target = "",
                       const char *status = "") {
  figures.push_back(figure{section, metric, impl, median(v), quantile(v, 0.25), quantile(v, 0.75),
                           unit, target, status});
}

static void noise_report(const std::string &section, const noise_mark &since) {
  double others = 0, steal = 0;
  printf("%s", noise_line(since, "this section", &others, &steal).c_str());
  add_figure(section.c_str(), "CPU share used by other processes", "machine", {others}, "%");
  add_figure(section.c_str(), "CPU share stolen by the hypervisor", "machine", {steal}, "%");
}

static const char *const WRONG = "gives a wrong result";

static void fill(double *a, size_t n, double v) { std::fill(a, a + n, v); }

/* ------------------------------------------------------------------ */
/* 1. Overhead per iteration on one worker                             */

/* Iterations per call of the short-call rows: about 6 us of work. */
enum { OVH_SHORT_CALL = 1 << 14 };

/* The 1-worker implementations, shared by the timed section and the
 * callgrind mode. scale: iterations of the plain loop per run; the slow
 * fine-grained ones run fewer unless same_n (per-iteration figures compare
 * them). short_calls: add the default-schedule rows that run the same
 * iterations as calls of OVH_SHORT_CALL iterations (per-call costs). */
static std::vector<variant> overhead_variants(double *a, size_t scale, bool same_n,
                                              bool short_calls, tbb::task_arena &arena1) {
  size_t n = scale, n_omp = same_n ? scale : scale / 2, n_tbb = same_n ? scale : scale / 8;
  /* Each runtime's loop over [lo, hi). */
  auto adapt = [=](size_t grain) {
    return [=](size_t lo, size_t hi) { return ovh_adapt(a, lo, hi, grain); };
  };
  auto omp = [=](omp_kind k) {
    return [=](size_t lo, size_t hi) {
      ovh_omp(k, a, lo, hi, 1);
      return 0;
    };
  };
  auto tbb = [=, &arena1](tbb_kind k) {
    return [=, &arena1](size_t lo, size_t hi) {
      ovh_tbb(k, arena1, a, lo, hi);
      return 0;
    };
  };
  /* [0, iters) in one call; the same n iterations in calls of OVH_SHORT_CALL. */
  auto one_call = [](const char *name, family f, size_t iters, auto loop) {
    return variant{name, f, [=] { return loop(0, iters); }, (double)iters};
  };
  auto in_short_calls = [n](const char *name, family f, auto loop) {
    return variant{name, f, [=] { return in_calls(n, OVH_SHORT_CALL, loop); }, (double)n};
  };
  auto plain = [=](size_t, size_t hi) {
    ovh_plain(a, hi);
    return 0;
  };
  std::vector<variant> v = {
      one_call("plain loop", FAM_SEQ, n, plain),
      one_call("adapt grain 1", FAM_ADAPT, n, adapt(1)),
      one_call("adapt default grain", FAM_ADAPT, n, adapt(0)),
      one_call("omp dynamic,1", FAM_OMP, n_omp, omp(OMP_DYNAMIC)),
      one_call("omp static", FAM_OMP, n, omp(OMP_STATIC)),
      one_call("tbb simple grain 1", FAM_TBB, n_tbb, tbb(TBB_SIMPLE)),
      one_call("tbb auto", FAM_TBB, n, tbb(TBB_AUTO)),
  };
  if (same_n) /* callgrind: a grain near the one calibrated natively (~2 us chunks) */
    v.push_back(one_call("adapt grain 4096", FAM_ADAPT, n, adapt(4096)));
  if (short_calls) {
    v.push_back(in_short_calls("adapt default, 2^14/call", FAM_ADAPT, adapt(0)));
    v.push_back(in_short_calls("omp static, 2^14/call", FAM_OMP, omp(OMP_STATIC)));
    v.push_back(in_short_calls("tbb auto, 2^14/call", FAM_TBB, tbb(TBB_AUTO)));
  }
  return v;
}

static void section_overhead(void) {
  const size_t n = (size_t)1 << 20; /* iterations per sample of the plain loop */
  double *a = alloc_array<double>(OVH_ARRAY), *ref = alloc_array<double>(OVH_ARRAY);
  perfctr pc;
  bool counters = counters_open(&pc, "PAPI_TOT_CYC,PAPI_TOT_INS");
  std::vector<variant> v = overhead_variants(a, n, false, true, pools->one);
  case_spec cs;
  cs.group = "overhead";
  cs.name = "1 worker: a[i&mask]=a[i&mask]*c+d";
  cs.rounds = rounds_for(151);
  cs.stop_on_failure = true;
  cs.counters = counters ? &pc : NULL;
  cs.prepare = [&](size_t) { fill(a, OVH_ARRAY, 1.5); };
  cs.check = [&](size_t i) {
    fill(ref, OVH_ARRAY, 1.5);
    ovh_plain(ref, (size_t)v[i].n);
    return check_equal(a, ref, OVH_ARRAY, WRONG);
  };
  case_result c = run_case(cs, v);
  printf("\n== 1. Overhead per iteration, ONE worker (adapt workers=1, OpenMP num_threads(1),"
         " TBB arena of 1)\n");
  printf("   %d rounds; 2^20 iterations per sample (omp dynamic,1: 2^19, tbb simple: 2^17) in"
         " one call, or in 64 calls of 2^14\n   (\"2^14/call\" rows, about 6 us each); median"
         " [p25 p75] over the rounds of the difference with the\n   plain loop's time per"
         " iteration in the same round\n",
         c.rounds);
  if (!counters) printf("   (no hardware counters: %s)\n", pc.message);
  printf("   %-25s %8s %22s %23s  %-22s %s\n", "implementation", "ns/iter", "extra ns/iter",
         "ratio to plain", "target", counters ? "extra cycles/iter  extra instr/iter" : "");
  for (int i = 0; i < (int)v.size(); i++) {
    std::vector<double> per = c.scaled(i, 1e9 / c.n[(size_t)i]);
    std::vector<double> extra =
        c.paired_per_unit(i, 0, [](double x, double y) { return (x - y) * 1e9; });
    std::vector<double> ratio = c.paired_per_unit(i, 0, [](double x, double y) { return x / y; });
    const std::string &name = v[(size_t)i].name;
    bool grain1 = name == "adapt grain 1";
    bool ratio_target = name == "adapt default grain" || name == "adapt default, 2^14/call";
    const char *target = grain1 ? "<= 2 ns/iter" : ratio_target ? "<= 2% (ratio <= 1.02)" : "";
    const char *status = grain1         ? (median(extra) <= 2.0 ? "PASS" : "MISS")
                         : ratio_target ? (median(ratio) <= 1.02 ? "PASS" : "MISS")
                                        : "";
    printf("   %-25s %8.3f %7.3f [%6.3f %6.3f] %7.4f [%6.4f %6.4f]  %-22s", name.c_str(),
           median(per), median(extra), quantile(extra, 0.25), quantile(extra, 0.75), median(ratio),
           quantile(ratio, 0.25), quantile(ratio, 0.75), fmt("%s %s", target, status).c_str());
    if (counters)
      printf(" %8.2f %17.2f", median(c.paired_counts(i, 0, 0)), median(c.paired_counts(i, 0, 1)));
    printf("\n");
    add_figure("overhead", "time per iteration", name, per, "ns");
    if (i == 0) continue;
    add_figure("overhead", "extra time per iteration", name, extra, "ns",
               ratio_target ? "" : target, ratio_target ? "" : status);
    add_figure("overhead", "time ratio to plain loop", name, ratio, "ratio",
               ratio_target ? target : "", ratio_target ? status : "");
    if (counters) {
      add_figure("overhead", "extra cycles per iteration (PAPI_TOT_CYC)", name,
                 c.paired_counts(i, 0, 0), "cycles");
      add_figure("overhead", "extra instructions per iteration (PAPI_TOT_INS)", name,
                 c.paired_counts(i, 0, 1), "instructions");
    }
  }
  if (counters) perfctr_destroy(&pc);
  free(a);
  free(ref);
}

/* ------------------------------------------------------------------ */
/* 2. daxpy T1/Ts                                                      */

static void section_daxpy(void) {
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
    double *x = alloc_array<double>(n), *y = alloc_array<double>(n), *yref = alloc_array<double>(n);
    for (size_t i = 0; i < n; i++) x[i] = (double)(i % 1000) * 1e-3;
    const double alpha = 0.5;
    fill(yref, n, 1.0);
    for (size_t c = 0; c < calls; c++) daxpy_seq(yref, x, alpha, 0, n);
    /* Every implementation runs `calls` calls of the whole loop. */
    auto repeat = [calls](std::function<int()> f) {
      return [calls, f] {
        int rc = 0;
        for (size_t c = 0; c < calls && rc == 0; c++) rc = f();
        return rc;
      };
    };
    tbb::task_arena &arena1 = pools->one;
    std::vector<variant> v = {
        {"sequential loop", FAM_SEQ, repeat(no_error([=] { daxpy_seq(y, x, alpha, 0, n); }))},
        {"adapt default grain", FAM_ADAPT,
         repeat([=] { return daxpy_adapt_outlined(y, x, alpha, n, NULL); })},
        {"omp static", FAM_OMP,
         repeat(no_error([=] { daxpy_omp(OMP_STATIC, 1, 1, y, x, alpha, n); }))},
        {"tbb auto", FAM_TBB,
         repeat(no_error([=, &arena1] { daxpy_tbb_outlined(arena1, y, x, alpha, n); }))},
    };
    case_spec cs;
    cs.group = "daxpy";
    cs.name = dc.name;
    cs.rounds = rounds_for(dc.rounds);
    cs.n = (double)(n * calls);
    cs.stop_on_failure = true;
    cs.prepare = [&](size_t) { fill(y, n, 1.0); };
    cs.check = [&](size_t) { return check_equal(y, yref, n, WRONG); };
    case_result c = run_case(cs, v);
    for (int i = 0; i < (int)v.size(); i++) {
      std::vector<double> ms = c.scaled(i, 1e3), ratio = c.paired(i, 0);
      printf("   %-40s %-22s %12.3f %8.4f [%6.4f %6.4f]\n", dc.name, v[(size_t)i].name.c_str(),
             median(ms), median(ratio), quantile(ratio, 0.25), quantile(ratio, 0.75));
      add_figure("daxpy", std::string("ms per sample, ") + dc.name, v[(size_t)i].name, ms, "ms");
      if (i > 0)
        add_figure("daxpy", std::string("T1/Ts, ") + dc.name, v[(size_t)i].name, ratio, "ratio");
    }
    free(x);
    free(y);
    free(yref);
  }
}

/* ------------------------------------------------------------------ */
/* 3./4. Steal round trip, compute-bound loops on 2 workers            */

/* Reads the steal latency and counters since the last adapt_stats_reset,
 * records them under `label`, and returns a one-line description. */
static std::string steal_figures(const std::string &label) {
  double med = 0, p90 = 0;
  int rc = adapt_stats_steal_latency(&med, &p90);
  steal_counts c = adapt_steal_counts();
  std::string counts =
      fmt("%llu requests, %llu steals, %llu timeouts", (unsigned long long)c.posted,
          (unsigned long long)c.steals, (unsigned long long)c.timeouts);
  auto value = [&](const std::string &metric, double v, double lo, double hi, const char *unit,
                   const char *status) {
    figures.push_back(figure{"steal", metric + ", " + label, "adapt", v, lo, hi, unit, "", status});
  };
  if (rc != 0) {
    value("round trip median", 0, 0, 0, "ns", "NO DATA");
  } else {
    value("round trip median", med, med, p90, "ns", "");
    value("round trip p90", p90, p90, p90, "ns", "");
  }
  value("requests posted", (double)c.posted, (double)c.posted, (double)c.posted, "count", "");
  value("successful steals", (double)c.steals, (double)c.steals, (double)c.steals, "count", "");
  value("request timeouts", (double)c.timeouts, (double)c.timeouts, (double)c.timeouts, "count",
        "");
  double per_split = c.splits ? (double)c.steals / (double)c.splits : 0;
  value("steals per split", per_split, per_split, per_split, "ratio", "");
  if (rc != 0) return "no latency sample (" + std::string(adapt_strerror(rc)) + "); " + counts;
  return fmt("median %.0f ns, p90 %.0f ns; ", med, p90) + counts +
         fmt(", %.2f steals per split", per_split);
}

static std::vector<std::string> steal_lines;

static void section_speedup(void) {
  const size_t n = (size_t)1 << 16;
  double *out = alloc_array<double>(n), *ref = alloc_array<double>(n);
  const int P = opt.workers;
  tbb::task_arena &arena2 = pools->of(P);
  printf("\n== 4. %d-worker speedup Ts/Tp of compute-bound loops (n = %zu, 256 chained"
         " multiply-adds per iteration on average)\n",
         P, n);
  printf("   %-12s %-22s %10s %24s  %s\n", "loop", "implementation", "ms", "speedup [p25 p75]",
         "target");
  for (int tri = 0; tri <= 1; tri++) {
    const char *loop = tri ? "triangular" : "balanced";
    cb_seq(ref, n, tri);
    auto omp = [=](omp_kind k) { return no_error([=] { cb_omp(k, P, out, n, tri); }); };
    auto tbb = [=, &arena2](tbb_kind k) {
      return no_error([=, &arena2] { cb_tbb(k, arena2, out, n, tri); });
    };
    std::vector<variant> v = {
        {"sequential loop", FAM_SEQ, no_error([=] { cb_seq(out, n, tri); })},
        {"adapt default grain", FAM_ADAPT, [=] { return cb_adapt(out, n, tri, 0); }},
        {"omp static", FAM_OMP, omp(OMP_STATIC)},
        {"omp dynamic", FAM_OMP, omp(OMP_DYNAMIC)},
        {"omp guided", FAM_OMP, omp(OMP_GUIDED)},
        {"tbb auto", FAM_TBB, tbb(TBB_AUTO)},
        {"tbb simple grain 1", FAM_TBB, tbb(TBB_SIMPLE)},
    };
    case_spec cs;
    cs.group = "speedup";
    cs.name = loop;
    cs.workers = P;
    cs.rounds = rounds_for(21);
    cs.n = (double)n;
    cs.gap_ns = opt.gap_ns;
    cs.stop_on_failure = true;
    cs.prepare = [&](size_t) { memset(out, 0xff, n * sizeof(double)); };
    cs.check = [&](size_t) { return check_equal(out, ref, n, WRONG); };
    adapt_stats_reset();
    case_result c = run_case(cs, v);
    std::string label =
        fmt("%s loop, default grain, %d timed + 1 warm-up regions", loop, cs.rounds);
    steal_lines.push_back(label + ": " + steal_figures(label));
    for (int i = 0; i < (int)v.size(); i++) {
      std::vector<double> ms = c.scaled(i, 1e3), sp = c.paired(0, i);
      const std::string &name = v[(size_t)i].name;
      const char *target = "", *status = "";
      if (name == "adapt default grain" && P == 2) {
        target = tri ? ">= 1.85" : ">= 1.9";
        status = median(sp) >= (tri ? 1.85 : 1.9) ? "PASS" : "MISS";
      }
      printf("   %-12s %-22s %10.2f %8.3f [%6.3f %6.3f]  %s %s\n", loop, name.c_str(), median(ms),
             median(sp), quantile(sp, 0.25), quantile(sp, 0.75), target, status);
      add_figure("speedup", std::string("ms, ") + loop, name, ms, "ms");
      if (i > 0)
        add_figure("speedup", fmt("speedup Ts/Tp, %d workers, ", P) + loop, name, sp, "ratio",
                   target, status);
    }
  }
  free(out);
  free(ref);
}

/* Many steals: regions of 4096 short iterations at grain 1. */
static void section_steal(void) {
  const size_t n = 4096;
  const int regions = opt.quick ? 100 : 2000;
  double *out = alloc_array<double>(n);
  printf("\n== 3. Steal round trip, %d workers (adapt_stats_steal_latency: request posted to"
         " reply received)\n",
         opt.workers);
  adapt_stats_reset();
  double t0 = now_s();
  for (int r = 0; r < regions; r++) {
    int rc = short_iterations_adapt(out, n);
    if (rc != 0) fatal("steal: adapt_for: %s", adapt_strerror(rc));
  }
  double t1 = now_s();
  std::string label = fmt("%d regions x %zu iterations (~20 ns), grain 1", regions, n);
  std::string line = steal_figures(label);
  printf("   %s (%.0f ms): %s\n", label.c_str(), (t1 - t0) * 1e3, line.c_str());
  printf("   the same counters over the speedup section's adapt runs (the victim polls once per"
         " chunk):\n");
  for (const std::string &s : steal_lines) printf("   %s\n", s.c_str());
  free(out);
}

/* ------------------------------------------------------------------ */
/* 5. Idle CPU between two regions                                     */

static int idle_child(const std::string &rt) {
  const size_t n = 4096;
  double *out = alloc_array<double>(n);
  std::function<void()> region;
  std::unique_ptr<tbb::task_arena> arena;
  if (rt == "adapt") {
    adapt_start(2);
    region = [=] { cb_adapt(out, n, 0, 0); };
  } else if (rt == "omp") {
    region = [=] { cb_omp(OMP_STATIC, 2, out, n, 0); };
  } else if (rt == "tbb") {
    arena.reset(new tbb::task_arena(2));
    region = [&] { cb_tbb(TBB_AUTO, *arena, out, n, 0); };
  } else {
    fatal("--idle-child adapt|omp|tbb");
  }
  region();
  double c0 = process_cpu_s();
  sleep_ns(1000000000LL);
  double c1 = process_cpu_s();
  region();
  printf("IDLE_CPU_NS %.0f\n", (c1 - c0) * 1e9);
  fflush(stdout);
  if (rt == "adapt") adapt_finalize();
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
  return pclose(p) == 0 ? ns : -1;
}

static void section_idle(void) {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) fatal("readlink /proc/self/exe failed");
  self[len] = 0;
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
/* Callgrind mode, output                                              */

static int callgrind_mode(size_t n) {
  adapt_start(1);
  tbb::task_arena arena1(1);
  arena1.initialize();
  double *a = alloc_array<double>(OVH_ARRAY);
  fill(a, OVH_ARRAY, 1.5);
  int rc = callgrind_counts("core", n,
                            [&](size_t s) { return overhead_variants(a, s, true, false, arena1); });
  free(a);
  adapt_finalize();
  return rc;
}

static void write_summary(const run_info &run) {
  printf("\nSummary of targets:\n");
  for (const figure &g : figures)
    if (!g.target.empty())
      printf("   %-9s %-44s %-20s %10.4g %-5s target %-22s %s\n", g.section.c_str(),
             g.metric.c_str(), g.impl.c_str(), g.value, g.unit.c_str(), g.target.c_str(),
             g.status.c_str());
  mkdirs(opt.out);
  std::string samples = opt.out + "/core_samples.csv", summary = opt.out + "/core_summary.csv";
  write_samples_csv(samples, "date,host,section,case,implementation,round,iterations,seconds", run);
  csv_writer w(summary,
               "date,host,section,metric,implementation,median,p25,p75,unit,target,status");
  for (const figure &g : figures) {
    w.text(run.when).text(run.host).word(g.section).text(g.metric).text(g.impl);
    w.number(g.value).number(g.p25).number(g.p75).word(g.unit).text(g.target).word(g.status);
    w.end_row();
  }
  printf("\nCSV: %s, %s\n", samples.c_str(), summary.c_str());
}

int main(int argc, char **argv) {
  bench_prog = "bench_core";
  cli c("       bench_core --callgrind N     (under valgrind --tool=callgrind)\n");
  c.text("--out", "DIR", &opt.out);
  c.flag("--quick", [] { opt.quick = true; });
  c.list("--sections", {"overhead", "daxpy", "speedup", "steal", "idle"}, &opt.sections);
  c.real("--gap-ms", "MS", [](double ms) { opt.gap_ns = (long long)(ms * 1e6); });
  c.flag("--report", [] { opt.report = true; });
  c.hidden("--callgrind", [&](const char *v) {
    opt.callgrind_n = (size_t)atoll(v);
    if (opt.callgrind_n == 0) c.usage();
  });
  c.hidden("--idle-child", [](const char *v) { opt.idle_child = v; });
  c.integer("--workers", "P", 1, 1024, &opt.workers);
  c.parse(argc, argv);
  if (opt.callgrind_n) return callgrind_mode(opt.callgrind_n);
  if (!opt.idle_child.empty()) return idle_child(opt.idle_child);

  run_info run = start_run(peer_versions(), "");
  if (opt.quick) printf("   --quick: 3 rounds per section, figures NOT meaningful\n");
  pools.reset(new peer_pools({opt.workers}));

  std::vector<section> sections = {
      {"overhead", 1, section_overhead},
      {"daxpy", 1, section_daxpy},
      {"speedup", opt.workers, section_speedup},
      {"steal", opt.workers, section_steal},
      {"idle", 0, section_idle},
  };
  section_hooks hooks;
  hooks.phase_begin = [](int workers) {
    if (workers >= 2) printf("\n%s", affinity_report(pools->of(workers)).c_str());
  };
  hooks.section_end = [](const section &s, const noise_mark &since) {
    if (s.workers > 0) noise_report(s.name, since);
  };
  run_sections(sections, opt.sections, hooks);

  printf("\n%s", load_at_end().c_str());
  write_summary(run);
  if (opt.report && python_report("core_report.py", {opt.out}, opt.out + "/core_report.md") != 0)
    return 1;
  return 0;
}
