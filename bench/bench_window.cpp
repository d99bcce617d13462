/* bench_window: the window algorithms of the paper (no-window, static-window,
 * sliding-window with its three splitters) against the sequential loop and
 * the PThread baselines of its §2.4, on 2 workers, in one run; plus the
 * per-element overhead of every C algorithm, per-element and range forms,
 * against the plain loop, and adapt_inclusive_scan against the sequential
 * prefix.
 * docs/benchmarks-window.md explains the figures.
 *
 * Kernel (memory-bound, long reuse distance, bench/kernels/window.hpp):
 * B[i] = A[i] + 0.5 * A[i - R]. Between the two reads of A[j] (iterations j
 * and j + R) the sequential run touches R elements of A and R of B: a reuse
 * distance of 16 R bytes, set to --reuse (default 5/8 of the shared cache,
 * between cache/P and cache for P = 2). Sequentially the second read hits
 * the shared cache; two workers far apart double the distance and miss;
 * workers kept within m elements add only 16 m bytes.
 *
 * Method (bench/common/harness.hpp): the variants of a section alternate,
 * the order rotating every repetition, after one warm-up round that checks
 * every variant's output; figures are medians of the repetitions.
 *
 * Usage: bench_window [--out DIR] [--n ELEMS] [--reps K] [--reuse BYTES]
 *                     [--section overhead|window|scan|all] [--callgrind N]
 * PAPI counters come from perfcounters/perfcounters.h (ADAPT_PAPI_EVENTS);
 * without a usable PMU the timings still run and the reason is printed.
 * --callgrind N: each implementation on N and 2N elements, one worker,
 * between callgrind client requests (bench/scripts/callgrind.sh).
 */
#include <adapt/adapt.h>
#include <adapt/algorithms.h>

#include "cli.hpp"
#include "elementwise.hpp"
#include "harness.hpp"
#include "output.hpp"
#include "window.hpp"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmath>
#include <string>
#include <vector>

struct options {
  std::string out = "build/release/bench-results";
  size_t n = 24u << 20; /* elements: 192 MiB per array */
  int reps = 9;
  size_t reuse = 0;
  std::string section = "all";
  size_t callgrind_n = 0;
};
static options opt;
static bool failed = false;

/* f run `passes` times in a row; stops at the first error. */
static std::function<int()> repeated(int passes, std::function<int()> f) {
  return [=] {
    int rc = 0;
    for (int p = 0; p < passes && rc == 0; p++) rc = f();
    return rc;
  };
}

/* median(t[i]) / median(t[base]), NaN if either failed. */
static double ratio_of_medians(const case_result &c, int i, int base) {
  return c.ok(i) && c.ok(base) ? median(c.t[(size_t)i]) / median(c.t[(size_t)base]) : NAN;
}

/* ------------------------------------------------------------------ */
/* Per-element overhead: every algorithm in its per-element and range */
/* forms against the plain loop (the range body called once), on      */
/* arrays that stay in the caches                                      */

/* The arrays of the overhead section: x, y (for_each, transform), in and
 * out (the others; out has room for 2 n), transform_var's vector on out. */
struct overhead_arrays {
  size_t n;
  double *x, *y, *in, *out;
  adapt_vec *vec;
};

static variant plain(const char *name, std::function<void()> f) {
  return variant{name, FAM_SEQ, no_error(f)};
}

static variant lib(const char *name, std::function<int()> f) { return variant{name, FAM_ADAPT, f}; }

/* f(&k) with a k of its own: the algorithms that answer a count or a
 * position. */
template <class F>
static std::function<int()> answering(F f) {
  return [f] {
    size_t k;
    return f(&k);
  };
}

/* for_each, transform, count_if, find_if and copy_if: every group its plain
 * loop first, then the library's two forms. */
static std::vector<variant> overhead_map_variants(const overhead_arrays &a) {
  const size_t n = a.n, sz = sizeof(double);
  double *x = a.x, *y = a.y, *in = a.in, *out = a.out;
  return {
      plain("plain loop (for_each body)", [=] { ew_each_range(x, n, NULL); }),
      lib("adapt_for_each", [=] { return adapt_for_each(x, n, sz, ew_each, NULL, NULL); }),
      lib("adapt_for_each_range",
          [=] { return adapt_for_each_range(x, n, sz, ew_each_range, NULL, NULL); }),
      plain("plain loop (transform body)", [=] { ew_transform_range(x, y, n, NULL); }),
      lib("adapt_transform",
          [=] { return adapt_transform(x, n, sz, y, sz, ew_transform, NULL, NULL); }),
      lib("adapt_transform_range",
          [=] { return adapt_transform_range(x, n, sz, y, sz, ew_transform_range, NULL, NULL); }),
      plain("plain loop (count_if body)", [=] { ew_count_range(in, n, NULL); }),
      lib("adapt_count_if",
          answering([=](size_t *k) { return adapt_count_if(in, n, sz, k, ew_odd, NULL, NULL); })),
      lib("adapt_count_if_range", answering([=](size_t *k) {
            return adapt_count_if_range(in, n, sz, k, ew_count_range, NULL, NULL);
          })),
      plain("plain loop (find_if body)", [=] { ew_find_negative_range(in, n, NULL); }),
      lib("adapt_find_if", answering([=](size_t *k) {
            return adapt_find_if(in, n, sz, k, ew_negative, NULL, NULL);
          })),
      lib("adapt_find_if_range", answering([=](size_t *k) {
            return adapt_find_if_range(in, n, sz, k, ew_find_negative_range, NULL, NULL);
          })),
      plain("plain loop (copy_if body)", [=] { ew_copy_range(in, n, out, NULL); }),
      lib("adapt_copy_if", answering([=](size_t *k) {
            return adapt_copy_if(in, n, sz, out, k, ew_odd, NULL, NULL);
          })),
      lib("adapt_copy_if_range", answering([=](size_t *k) {
            return adapt_copy_if_range(in, n, sz, out, k, ew_copy_range, NULL, NULL);
          })),
  };
}

/* transform_var and the scans, grouped as above. */
static std::vector<variant> overhead_scan_variants(const overhead_arrays &a) {
  const size_t n = a.n, sz = sizeof(double);
  double *in = a.in, *out = a.out;
  adapt_vec *vec = a.vec;
  return {
      plain("plain loop (transform_var body)", [=] { ew_var_range(in, n, out, NULL); }),
      lib("adapt_transform_var",
          [=] {
            vec->count = 0;
            return adapt_transform_var(in, n, sz, vec, 2, ew_var, NULL, NULL);
          }),
      lib("adapt_transform_var_range",
          [=] {
            vec->count = 0;
            return adapt_transform_var_range(in, n, sz, vec, 2, ew_var_range, NULL, NULL);
          }),
      plain("plain loop (scan body)", [=] { ew_sum_scan(NULL, in, out, n, NULL); }),
      lib("adapt_inclusive_scan",
          [=] { return adapt_inclusive_scan(in, n, sz, out, ew_sum, NULL, NULL); }),
      lib("adapt_inclusive_scan_range",
          [=] {
            return adapt_inclusive_scan_range(in, n, sz, out, ew_sum_scan, ew_sum_add, NULL, NULL);
          }),
      plain("plain loop (exclusive scan body)",
            [=] {
              double c = 0;
              ew_sum_xscan(&c, in, out, n, NULL);
            }),
      lib("adapt_exclusive_scan",
          [=] {
            const double zero = 0;
            return adapt_exclusive_scan(in, n, sz, out, &zero, ew_sum, NULL, NULL);
          }),
      lib("adapt_exclusive_scan_range",
          [=] {
            const double zero = 0;
            return adapt_exclusive_scan_range(in, n, sz, out, &zero, ew_sum_xscan, ew_sum_add, NULL,
                                              NULL);
          }),
  };
}

/* Prints the overhead table and writes window_overhead_w<workers>.csv:
 * ns per element, ratio to the group's plain loop (groups of `group`). */
static void overhead_report(const case_result &c, int workers, int group, int passes) {
  std::string path = fmt("%s/window_overhead_w%d.csv", opt.out.c_str(), workers);
  csv_writer csv(path, "variant,workers,ns_per_elem,ratio_to_plain");
  printf("\n== overhead section: %d worker(s), n=%zu doubles, %d passes per timing, %d reps, "
         "automatic grain\n",
         workers, (size_t)(c.n[0] / passes), passes, opt.reps);
  printf("%-34s %10s %12s\n", "variant", "ns/elem", "vs plain");
  for (int i = 0; i < (int)c.names.size(); i++) {
    double ns = c.ok(i) ? median(c.scaled(i, 1e9 / c.n[(size_t)i])) : NAN;
    double ratio = ratio_of_medians(c, i, i - i % group);
    printf("%-34s %10s %12s\n", c.names[(size_t)i].c_str(), num(ns, "%.3f").c_str(),
           c.ok(i) ? num(ratio, "%.2f").c_str() : "FAILED");
    csv.word(c.names[(size_t)i]).integer(workers).number(ns, "%.4f").number(ratio, "%.4f");
    csv.end_row();
  }
  printf("wrote %s\n", path.c_str());
}

static void section_overhead(int workers) {
  const size_t n = 1u << 18; /* 2 MiB per array: in L2+L3 */
  const int passes = 20;
  overhead_arrays a;
  a.n = n;
  a.x = alloc_array<double>(n);
  a.y = alloc_array<double>(n);
  a.in = alloc_array<double>(n);
  a.out = alloc_array<double>(2 * n);
  for (size_t i = 0; i < n; i++) a.x[i] = a.in[i] = (double)i;
  /* transform_var's vector: room for every output, so the master never
   * reallocates (its count is reset before each call) */
  a.vec = new adapt_vec{a.out, 0, 2 * n, sizeof(double)};
  std::vector<variant> v = overhead_map_variants(a), scans = overhead_scan_variants(a);
  v.insert(v.end(), scans.begin(), scans.end());
  for (variant &var : v) var.run = repeated(passes, var.run);
  case_spec cs;
  cs.group = "overhead";
  cs.name = fmt("%d worker(s)", workers);
  cs.workers = workers;
  cs.rounds = opt.reps;
  cs.n = (double)n * passes;
  case_result c = run_case(cs, v);
  overhead_report(c, workers, 3, passes);
  failed = failed || c.any_failure();
  delete a.vec;
  free(a.x);
  free(a.y);
  free(a.in);
  free(a.out);
}

/* ------------------------------------------------------------------ */
/* Window section                                                      */

static const char *splitter_name(adapt_window_splitter s) {
  return s == ADAPT_SPLITTER_LOCAL ? "local" : s == ADAPT_SPLITTER_DISTANT ? "distant" : "balanced";
}

/* The variants and their window sizes m (0: none): sequential, the
 * PThread baselines, adapt no-window, static and sliding windows. */
static std::vector<variant> window_variants(const window_kernel &k, pthread_pool &pool,
                                            size_t grain, std::vector<size_t> *m_of) {
  static const size_t ms[] = {1u << 12, 1u << 14, 1u << 16, 1u << 18, 1u << 20, 1u << 21};
  const window_kernel *kp = &k;
  pthread_pool *pp = &pool;
  std::vector<variant> v;
  auto add = [&](const std::string &name, family f, size_t m, std::function<int()> run) {
    v.push_back({name, f, std::move(run)});
    m_of->push_back(m);
  };
  auto adapt = [&](const std::string &name, adapt_window_mode mode, size_t m,
                   adapt_window_splitter sp) {
    adapt_attr at = make_attr(grain);
    at.window = mode;
    at.window_size = m;
    at.splitter = sp;
    add(name, FAM_ADAPT, m, [=] { return window_adapt(*kp, &at); });
  };
  add("sequential", FAM_SEQ, 0, no_error([=] { window_seq(*kp); }));
  add("pthread no-window", FAM_PTHREAD, 0, no_error([=] { pp->run(*kp, 0); }));
  for (size_t m : ms) add("pthread static", FAM_PTHREAD, m, no_error([=] { pp->run(*kp, m); }));
  adapt("adapt no-window", ADAPT_WINDOW_NONE, 0, ADAPT_SPLITTER_BALANCED);
  for (size_t m : ms) adapt("adapt static", ADAPT_WINDOW_STATIC, m, ADAPT_SPLITTER_BALANCED);
  for (adapt_window_splitter sp :
       {ADAPT_SPLITTER_BALANCED, ADAPT_SPLITTER_LOCAL, ADAPT_SPLITTER_DISTANT})
    for (size_t m : ms)
      if (sp == ADAPT_SPLITTER_BALANCED || m == (1u << 16) || m == (1u << 20)) /* 2 sizes suffice */
        adapt(std::string("adapt sliding-") + splitter_name(sp), ADAPT_WINDOW_SLIDING, m, sp);
  return v;
}

/* Prints the window table and writes window.csv: time, speedup, the
 * counters' medians and ratios to the sequential run, steals. */
static void window_report(const case_result &c, const std::vector<size_t> &m_of,
                          const perfctr *pc) {
  std::string path = opt.out + "/window.csv";
  const int nev = pc->available ? pc->nevents : 0; /* no columns of zeros */
  std::string header = "variant,m,time_ms,speedup";
  for (int e = 0; e < nev; e++) header += fmt(",%s,%s_ratio", pc->names[e], pc->names[e]);
  csv_writer csv(path, header + ",steals");
  int llc = nev - 1; /* the LLC-miss column: the last event (DRAM fills by default) */
  auto event = [&](int i, int e) {
    std::vector<double> x;
    for (const std::vector<long long> &round : c.counts[(size_t)i])
      x.push_back((double)round[(size_t)e]);
    return c.ok(i) ? median(x) : NAN;
  };
  printf("%-28s %9s %9s %8s", "variant", "m", "time ms", "speedup");
  if (nev) printf(" %14s %7s", "LLC miss", "ratio");
  printf(" %8s\n", "steals");
  for (int i = 0; i < (int)c.names.size(); i++) {
    double t = c.ok(i) ? median(c.t[(size_t)i]) : NAN, sp = ratio_of_medians(c, 0, i);
    std::string m = m_of[(size_t)i] ? std::to_string(m_of[(size_t)i]) : "-";
    printf("%-28s %9s %9s %8s", c.names[(size_t)i].c_str(), m.c_str(), num(t * 1e3, "%.2f").c_str(),
           c.ok(i) ? num(sp, "%.2f").c_str() : "FAILED");
    csv.word(c.names[(size_t)i]).integer((long long)m_of[(size_t)i]).number(t * 1e3, "%.3f");
    csv.number(sp, "%.4f");
    for (int e = 0; e < nev; e++) {
      double x = event(i, e), base = event(0, e);
      csv.number(x, "%.0f").number(base > 0 ? x / base : 0.0, "%.4f");
    }
    if (nev) {
      double x = event(i, llc), base = event(0, llc);
      printf(" %14.0f %7.3f", x, base > 0 ? x / base : 0.0);
    }
    double st = c.ok(i) ? median(c.extra[(size_t)i]) : NAN;
    printf(" %8s\n", num(st, "%.0f").c_str());
    csv.number(st, "%.0f");
    csv.end_row();
  }
  printf("(medians of %d interleaved runs; ratio = LLC misses / sequential; the LLC-miss "
         "column is the event %s)\n",
         opt.reps, nev ? pc->names[llc] : "(none: no counters)");
  printf("wrote %s\n", path.c_str());
}

static void section_window(perfctr *pc, int workers) {
  size_t cache = adapt_shared_cache_size();
  size_t n = opt.n, reuse = opt.reuse ? opt.reuse : (cache ? cache : (32u << 20)) / 8 * 5;
  size_t r = reuse / 16;
  if (r == 0 || r >= n) fatal("--reuse %zu does not fit --n %zu", reuse, n);
  double *a = alloc_array<double>(n), *b = alloc_array<double>(n);
  for (size_t i = 0; i < n; i++) {
    a[i] = (double)(i % 1000) * 0.001;
    b[i] = 0.0;
  }
  window_kernel k = {a, b, n, r};
  pthread_pool pool;
  if (!pool.start(workers)) fatal("cannot start %d pthreads", workers);
  const size_t grain = 512; /* the same for every adaptive variant (§5.1 calibrates 128) */
  std::vector<size_t> m_of;
  std::vector<variant> v = window_variants(k, pool, grain, &m_of);
  printf("\n== window section: n=%zu doubles (A and B: %.0f MiB each), reuse distance %zu bytes "
         "(%.2f of the shared cache %zu), R=%zu, %d workers, grain %zu, %d reps\n",
         n, (double)n * 8 / (1 << 20), 16 * r, cache ? (double)(16 * r) / (double)cache : 0.0,
         cache, r, workers, grain, opt.reps);
  fflush(stdout);
  case_spec cs;
  cs.group = "window";
  cs.name = fmt("reuse %zu bytes", 16 * r);
  cs.workers = workers;
  cs.rounds = opt.reps;
  cs.n = (double)n;
  cs.counters = pc->available ? pc : NULL;
  cs.prepare = [](size_t) { adapt_stats_reset(); };
  cs.check = [&](size_t) {
    size_t bad = window_wrong(k);
    std::fill(b, b + n, NAN); /* the next variant's warm-up run must write every element */
    return bad ? fmt("wrong result in %zu elements", bad) : std::string();
  };
  cs.extra = [](size_t) { return (double)adapt_steal_counts().steals; };
  case_result c = run_case(cs, v);

  window_report(c, m_of, pc);
  failed = failed || c.any_failure();
  free(a);
  free(b);
}

/* ------------------------------------------------------------------ */
/* Scan section                                                        */

static void section_scan(int workers) {
  const size_t n = 1u << 24;
  int64_t *x = alloc_array<int64_t>(n), *y = alloc_array<int64_t>(n), *z = alloc_array<int64_t>(n);
  for (size_t i = 0; i < n; i++) x[i] = (int64_t)(i % 7) - 3;
  scan_seq(x, y, n); /* the reference */
  std::vector<variant> v = {
      {"sequential", FAM_SEQ, no_error([=] { scan_seq(x, z, n); })},
      {"adapt_inclusive_scan", FAM_ADAPT,
       [=] { return adapt_inclusive_scan(x, n, sizeof *x, z, scan_add, NULL, NULL); }},
  };
  case_spec cs;
  cs.group = "scan";
  cs.name = fmt("int64 inclusive scan of %zu elements", n);
  cs.workers = workers;
  cs.rounds = opt.reps;
  cs.check_every_run = true;
  cs.check = [=](size_t) -> std::string {
    return memcmp(y, z, n * sizeof *z) == 0 ? "" : "wrong result";
  };
  case_result c = run_case(cs, v);
  double ts = c.ok(0) ? median(c.t[0]) : NAN, ta = c.ok(1) ? median(c.t[1]) : NAN;
  printf("\n== scan section: int64 inclusive scan of %zu elements, %d workers, %d reps\n"
         "sequential (op through a pointer) %.2f ms, adapt_inclusive_scan %.2f ms, speed-up %.2f\n",
         n, workers, opt.reps, ts * 1e3, ta * 1e3, ts / ta);
  csv_writer csv(opt.out + "/window_scan.csv", "variant,workers,n,time_ms");
  csv.word("sequential").integer(1).integer((long long)n).number(ts * 1e3, "%.3f").end_row();
  csv.word("adapt_inclusive_scan").integer(workers).integer((long long)n);
  csv.number(ta * 1e3, "%.3f").end_row();
  failed = failed || c.any_failure();
  free(x);
  free(y);
  free(z);
}

/* ------------------------------------------------------------------ */
/* Callgrind mode, main                                                */

/* Explicit grains: the automatic grain is calibrated on time, which
 * valgrind distorts. */
static int callgrind_mode(size_t n) {
  adapt_start(1);
  double *x = alloc_array<double>(2 * n), *y = alloc_array<double>(2 * n);
  for (size_t i = 0; i < 2 * n; i++) x[i] = (double)i;
  adapt_attr g4096 = make_attr(4096), g64 = make_attr(64), sl = make_attr(4096);
  sl.window = ADAPT_WINDOW_SLIDING;
  sl.window_size = 65536;
  adapt_attr st = sl;
  st.window = ADAPT_WINDOW_STATIC;
  const size_t sz = sizeof(double);
  int rc = callgrind_counts("window", n, [=](size_t m) {
    return std::vector<variant>{
        {"plain loop", FAM_SEQ, no_error([=] { ew_each_range(x, m, NULL); })},
        {"for_each grain 4096", FAM_ADAPT,
         [=] { return adapt_for_each(x, m, sz, ew_each, NULL, &g4096); }},
        {"for_each_range grain 4096", FAM_ADAPT,
         [=] { return adapt_for_each_range(x, m, sz, ew_each_range, NULL, &g4096); }},
        {"transform grain 4096", FAM_ADAPT,
         [=] { return adapt_transform(x, m, sz, y, sz, ew_transform, NULL, &g4096); }},
        {"transform_range grain 4096", FAM_ADAPT,
         [=] { return adapt_transform_range(x, m, sz, y, sz, ew_transform_range, NULL, &g4096); }},
        {"for_each static m=65536", FAM_ADAPT,
         [=] { return adapt_for_each(x, m, sz, ew_each, NULL, &st); }},
        {"for_each sliding m=65536", FAM_ADAPT,
         [=] { return adapt_for_each(x, m, sz, ew_each, NULL, &sl); }},
        {"for_each grain 64", FAM_ADAPT,
         [=] { return adapt_for_each(x, m, sz, ew_each, NULL, &g64); }},
        {"for_each_range grain 64", FAM_ADAPT,
         [=] { return adapt_for_each_range(x, m, sz, ew_each_range, NULL, &g64); }},
        {"plain count_if body", FAM_SEQ, no_error([=] { ew_count_range(x, m, NULL); })},
        {"count_if grain 4096", FAM_ADAPT,
         [=] {
           size_t k;
           return adapt_count_if(x, m, sz, &k, ew_odd, NULL, &g4096);
         }},
        {"count_if_range grain 4096", FAM_ADAPT,
         [=] {
           size_t k;
           return adapt_count_if_range(x, m, sz, &k, ew_count_range, NULL, &g4096);
         }},
        {"plain copy_if body", FAM_SEQ, no_error([=] { ew_copy_range(x, m, y, NULL); })},
        {"copy_if grain 4096", FAM_ADAPT,
         [=] {
           size_t k;
           return adapt_copy_if(x, m, sz, y, &k, ew_odd, NULL, &g4096);
         }},
        {"copy_if_range grain 4096", FAM_ADAPT,
         [=] {
           size_t k;
           return adapt_copy_if_range(x, m, sz, y, &k, ew_copy_range, NULL, &g4096);
         }},
        {"plain scan body", FAM_SEQ, no_error([=] { ew_sum_scan(NULL, x, y, m, NULL); })},
        {"inclusive_scan grain 4096", FAM_ADAPT,
         [=] { return adapt_inclusive_scan(x, m, sz, y, ew_sum, NULL, &g4096); }},
        {"inclusive_scan_range grain 4096", FAM_ADAPT,
         [=] {
           return adapt_inclusive_scan_range(x, m, sz, y, ew_sum_scan, ew_sum_add, NULL, &g4096);
         }},
    };
  });
  free(x);
  free(y);
  adapt_finalize();
  return rc;
}

int main(int argc, char **argv) {
  bench_prog = "bench_window";
  cli c;
  c.text("--out", "DIR", &opt.out);
  c.integer("--n", "ELEMS", 1024, 1LL << 34, &opt.n);
  c.integer("--reps", "K", 1, 1000, &opt.reps);
  c.integer("--reuse", "BYTES", 0, 1LL << 40, &opt.reuse);
  c.choice("--section", {"overhead", "window", "scan", "all"}, &opt.section);
  c.integer("--callgrind", "N", 1, 1LL << 30, &opt.callgrind_n);
  c.parse(argc, argv);
  if (opt.callgrind_n) return callgrind_mode(opt.callgrind_n) ? 1 : 0;

  mkdirs(opt.out);
  start_run("the PThread baselines", "");
  /* counters first: the worker threads created later are counted */
  perfctr pc;
  if (!counters_open(&pc, NULL)) fprintf(stderr, "bench_window: %s\n", pc.message);
  std::vector<section> sections = {
      {"overhead", 1, [] { section_overhead(1); }},
      {"overhead", 2, [] { section_overhead(2); }},
      {"window", 2, [&] { section_window(&pc, 2); }},
      {"scan", 2, [] { section_scan(2); }},
  };
  std::set<std::string> selected = {opt.section};
  if (opt.section == "all") selected = {"overhead", "window", "scan"};
  run_sections(sections, selected, section_hooks());
  perfctr_destroy(&pc);
  return failed ? 1 : 0;
}
