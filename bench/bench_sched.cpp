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
 * Method (bench/common/harness.hpp): the runtime is started with 1 worker,
 * every table's P=1 cases run, then with 2 workers every P=2 case. Inside a
 * case every variant, the sequential baseline Ts included, runs once per
 * round, in a Williams order (each after every other alike), after one
 * untimed warm-up round; every run (warm-up and timed) is checked against the sequential
 * result (bitwise arrays, exact counts) and a failing or erroring variant is
 * reported as FAILED in the table (exit code 3 at the end). Figures are
 * medians over the rounds; speedups and ratios are per-round paired ratios
 * (Ts of the same round; the best peer = the OpenMP/TBB variant with the
 * lowest median time in that case). Ts/T1 and T1/T2 (hybrid) pair the
 * medians of the two phases. The loops are in bench/kernels (daxpy,
 * mandelbrot, nqueens, fib, hybrid).
 *
 * Output: the tables on stdout and in $OUT/sched_<table>.txt, one CSV per
 * table $OUT/sched_<table>.csv, every sample in $OUT/sched_samples.csv; with
 * --report, bench/scripts/sched_plot.py draws $OUT/sched_<table>.png and
 * writes the Markdown tables to $OUT/sched_report.md.
 *
 * Options: --out DIR, --tables micro,hybrid,lazy, --reps N (timed rounds,
 * default 7; nqueens: at most --slow-reps, default 5), --quick (3 rounds,
 * small sizes: smoke test), --gap-ms MS (pause before each 2-worker sample
 * so that idle threads of the previous runtime are asleep, default 10),
 * --commit STR (recorded in the outputs), --report, --workers LIST (the
 * worker counts, default 1,2: the text tables and plots show P = 1 and 2,
 * the CSV files every count; bench/scripts/scaling.py), and the sizes
 * --daxpy-n, --mandel-side, --mandel-maxit, --nqueens, --lazy-nqueens,
 * --fib, --hybrid-n, --hybrid-elems, --hybrid-steps.
 */
#include <adapt/adapt.h>
#include <adapt/loop.h>

#include "cli.hpp"
#include "daxpy.hpp"
#include "fib.hpp"
#include "harness.hpp"
#include "hybrid.hpp"
#include "mandelbrot.hpp"
#include "nqueens.hpp"
#include "output.hpp"
#include "peers.hpp"
#include "report.hpp"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct options {
  std::string out = "build/release/bench-results";
  std::set<std::string> tables = {"micro", "hybrid", "lazy"};
  int reps = 7;
  int slow_reps = 5;
  bool quick = false, report = false;
  long long gap_ns = 10 * 1000000LL;
  std::string commit = "";
  size_t daxpy_n = (size_t)1 << 22; /* 2 x 32 MiB: beyond the 32 MiB L3 */
  int mandel_side = 384;
  int mandel_maxit = 128;
  int nqueens = 12;
  int lazy_nqueens = 12;
  int fib = 28;
  bool callgrind = false; /* --callgrind F,Q: under valgrind (kernels_callgrind.sh sched) */
  size_t hybrid_n = 4096;
  size_t hybrid_elems = 196608; /* 1.5 MiB of doubles: each core's half fits its L2 */
  int hybrid_steps = 100;
  std::vector<int> workers = {1, 2}; /* the text tables show P = 1 and 2 */
};
static options opt;
static std::vector<case_result> results;
static bool any_failure = false;

static int rounds(void) { return opt.quick ? 3 : opt.reps; }
/* nqueens (both tables): fewer rounds, its samples are the longest. */
static int slow_rounds(void) { return opt.quick ? 3 : std::min(opt.reps, opt.slow_reps); }

/* ------------------------------------------------------------------ */
/* Variants of a case                                                  */

static const std::vector<adapt_sched> ALL_SCHEDS = {
    ADAPT_SCHED_ADAPTIVE, ADAPT_SCHED_LOOPFRAME, ADAPT_SCHED_DAC,     ADAPT_SCHED_HYBRID,
    ADAPT_SCHED_LAZY_DF,  ADAPT_SCHED_LAZY_DF2,  ADAPT_SCHED_LAZY_BF, ADAPT_SCHED_STATIC};
static const std::vector<adapt_sched> LAZY_TABLE_SCHEDS = {
    ADAPT_SCHED_DAC,      ADAPT_SCHED_LOOPFRAME, ADAPT_SCHED_ADAPTIVE, ADAPT_SCHED_LAZY_DF,
    ADAPT_SCHED_LAZY_DF2, ADAPT_SCHED_LAZY_BF,   ADAPT_SCHED_DEFAULT};

/* A peer variant: an OpenMP schedule (kind: omp_kind, or OMP_TASKS for the
 * kernel's task construct) or a TBB partitioner (kind: tbb_kind); chunk:
 * the OpenMP chunk or the TBB grain. */
enum { OMP_TASKS = -1 };
struct peer {
  const char *name;
  family fam;
  int kind;
  size_t chunk;
};

static const std::vector<peer> OMP_GRAIN1 = {{"omp static", FAM_OMP, OMP_STATIC, 1},
                                             {"omp dynamic,1", FAM_OMP, OMP_DYNAMIC, 1},
                                             {"omp guided,1", FAM_OMP, OMP_GUIDED, 1}};
static const std::vector<peer> TBB_GRAIN1 = {{"tbb auto", FAM_TBB, TBB_AUTO, 1},
                                             {"tbb simple,1", FAM_TBB, TBB_SIMPLE, 1},
                                             {"tbb affinity", FAM_TBB, TBB_AFFINITY, 1}};
static const std::vector<peer> LAZY_TBB = {{"tbb simple,1", FAM_TBB, TBB_SIMPLE, 1},
                                           {"tbb auto", FAM_TBB, TBB_AUTO, 1}};

static std::vector<peer> peers_of(std::initializer_list<std::vector<peer>> parts) {
  std::vector<peer> all;
  for (const std::vector<peer> &p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

/* One case's work, one callable per runtime (the TBB ones in the case's arena). */
struct kernel {
  std::function<void()> seq;
  std::function<int(const adapt_attr *)> adapt;
  std::function<void(omp_kind, int chunk)> omp;
  std::function<void()> omp_tasks;
  std::function<void(tbb_kind, tbb::affinity_partitioner *, size_t grain)> tbb;
};

/* A kernel whose every version returns a count (nqueens, fib). */
struct count_kernel {
  std::function<long()> seq;
  std::function<long(const adapt_attr *)> adapt;
  std::function<long(omp_kind, int chunk)> omp;
  std::function<long()> omp_tasks;
  std::function<long(tbb_kind)> tbb;
};

/* The count kernel as a kernel that stores each run's count in *got. */
static kernel storing(const count_kernel &c, const std::shared_ptr<long> &got) {
  kernel k;
  k.seq = [=] { *got = c.seq(); };
  k.adapt = [=](const adapt_attr *at) {
    *got = c.adapt(at);
    return 0;
  };
  k.omp = [=](omp_kind kind, int chunk) { *got = c.omp(kind, chunk); };
  k.omp_tasks = [=] { *got = c.omp_tasks(); };
  k.tbb = [=](tbb_kind kind, tbb::affinity_partitioner *, size_t) { *got = c.tbb(kind); };
  return k;
}

/* Ts, then one variant per adapt scheduler at `grain`, then the peers in
 * order. Each TBB peer keeps its affinity partitioner across the rounds. */
static std::vector<variant> variants_of(const kernel &k, const std::vector<adapt_sched> &scheds,
                                        size_t grain, const std::vector<peer> &peers) {
  std::vector<variant> v = {{"sequential (Ts)", FAM_SEQ, no_error(k.seq)}};
  for (adapt_sched s : scheds)
    v.push_back({sched_label(s), FAM_ADAPT, [=] {
                   adapt_attr at = make_attr(grain, s);
                   return k.adapt(&at);
                 }});
  for (const peer &p : peers) {
    auto ap = std::make_shared<tbb::affinity_partitioner>();
    if (p.fam == FAM_TBB)
      v.push_back({p.name, p.fam, no_error([=] { k.tbb((tbb_kind)p.kind, ap.get(), p.chunk); })});
    else if (p.kind == OMP_TASKS)
      v.push_back({p.name, p.fam, no_error(k.omp_tasks)});
    else
      v.push_back({p.name, p.fam, no_error([=] { k.omp((omp_kind)p.kind, (int)p.chunk); })});
  }
  return v;
}

/* Runs one case of `table` (every run checked), prints its progress line
 * and keeps it with `note`. */
static void run_sched_case(const std::string &table, const std::string &bench, int P, int nrounds,
                           const std::vector<variant> &v, std::function<void(size_t)> prepare,
                           std::function<std::string(size_t)> check, const std::string &note,
                           std::function<double(size_t)> extra = nullptr) {
  case_spec cs;
  cs.group = table;
  cs.name = bench;
  cs.workers = P;
  cs.rounds = nrounds;
  cs.gap_ns = P > 1 ? opt.gap_ns : 0;
  cs.check_every_run = true;
  cs.prepare = std::move(prepare);
  cs.check = std::move(check);
  cs.extra = std::move(extra);
  results.push_back(run_case(cs, v));
  case_result &c = results.back();
  c.note = note;
  any_failure = any_failure || c.any_failure();
  printf("   [%s] %s, %d worker(s): %zu variants x (1 + %d) rounds, %.1f s, noise %.0f%%\n",
         table.c_str(), bench.c_str(), P, v.size(), nrounds, c.seconds, 100 * c.noise);
  fflush(stdout);
}

/* A case of a count kernel, checked against the sequential count (itself
 * checked against `known` when >= 0); what: the word for the count in
 * messages. */
static void run_count_case(const std::string &table, const std::string &bench, int P, int nrounds,
                           const count_kernel &ck, const std::vector<adapt_sched> &scheds,
                           const std::vector<peer> &peers, const char *what, long known,
                           const std::string &note) {
  long ref = ck.seq();
  if (known >= 0 && ref != known) {
    fprintf(stderr, "bench_sched: %s: sequential %s %ld, expected %ld\n", bench.c_str(), what, ref,
            known);
    exit(3);
  }
  auto got = std::make_shared<long>(0);
  run_sched_case(
      table, bench, P, nrounds, variants_of(storing(ck, got), scheds, 1, peers),
      [=](size_t) { *got = -2; },
      [=](size_t) -> std::string {
        if (*got == ref) return "";
        return fmt("%s %ld, sequential %ld", what, *got, ref);
      },
      note);
}

/* ------------------------------------------------------------------ */
/* Table: micro                                                        */

static count_kernel nqueens_kernel(int n, int P, tbb::task_arena &arena) {
  count_kernel k;
  k.seq = [=] { return nq_seq(n); };
  k.adapt = [=](const adapt_attr *at) { return nq_adapt(n, at); };
  k.omp = [=](omp_kind kind, int chunk) { return nq_omp_for(kind, chunk, P, n); };
  k.omp_tasks = [=] { return nq_omp_taskloop(P, n); };
  k.tbb = [=, &arena](tbb_kind kind) { return nq_tbb(kind, arena, n); };
  return k;
}

static void micro_cases(int P, tbb::task_arena &arena) {
  const std::vector<peer> peers = peers_of({OMP_GRAIN1, TBB_GRAIN1});
  {
    size_t n = opt.daxpy_n;
    double *x = alloc_array<double>(n), *y = alloc_array<double>(n);
    double *yref = alloc_array<double>(n);
    for (size_t i = 0; i < n; i++) x[i] = (double)(i % 1000) * 1e-3;
    const double a = 0.5;
    std::fill(yref, yref + n, 1.0);
    daxpy_seq(yref, x, a, 0, n);
    kernel k;
    k.seq = [=] { daxpy_seq(y, x, a, 0, n); };
    k.adapt = [=](const adapt_attr *at) { return daxpy_adapt(y, x, a, n, at); };
    k.omp = [=](omp_kind kind, int chunk) { daxpy_omp(kind, chunk, P, y, x, a, n); };
    k.tbb = [=, &arena](tbb_kind kind, tbb::affinity_partitioner *ap, size_t) {
      daxpy_tbb(kind, arena, ap, y, x, a, n);
    };
    run_sched_case(
        "micro", fmt("daxpy n=%zu", n), P, rounds(), variants_of(k, ALL_SCHEDS, 1, peers),
        [=](size_t) { std::fill(y, y + n, 1.0); },
        [=](size_t) { return check_equal(y, yref, n, "y differs from the sequential y"); },
        "y += 0.5*x, 2 arrays of " + std::to_string(n * 8 >> 20) +
            " MiB; one loop per sample, grain 1");
    free(x);
    free(y);
    free(yref);
  }
  {
    int side = opt.mandel_side, maxit = opt.mandel_maxit;
    size_t n = (size_t)side * (size_t)side;
    int *out = alloc_array<int>(n), *ref = alloc_array<int>(n);
    mb_seq(ref, side, maxit);
    kernel k;
    k.seq = [=] { mb_seq(out, side, maxit); };
    k.adapt = [=](const adapt_attr *at) { return mb_adapt(out, side, maxit, at); };
    k.omp = [=](omp_kind kind, int chunk) { mb_omp(kind, chunk, P, out, side, maxit); };
    k.tbb = [=, &arena](tbb_kind kind, tbb::affinity_partitioner *ap, size_t) {
      mb_tbb(kind, arena, ap, out, side, maxit);
    };
    run_sched_case(
        "micro", fmt("mandelbrot %dx%d", side, side), P, rounds(),
        variants_of(k, ALL_SCHEDS, 1, peers), [=](size_t) { memset(out, 0xff, n * sizeof(int)); },
        [=](size_t) { return check_equal(out, ref, n, "image differs from the sequential one"); },
        "one loop over the pixels, at most " + std::to_string(maxit) +
            " iterations per pixel, grain 1");
    free(out);
    free(ref);
  }
  int nq = opt.nqueens;
  run_count_case("micro", fmt("nqueens n=%d", nq), P, slow_rounds(), nqueens_kernel(nq, P, arena),
                 ALL_SCHEDS,
                 peers_of({OMP_GRAIN1, {{"omp taskloop,1", FAM_OMP, OMP_TASKS, 1}}, TBB_GRAIN1}),
                 "count", nq_known(nq),
                 "parallel loop over the " + std::to_string(nq) +
                     " columns of every row, nested to the last row, grain 1; omp "
                     "static/dynamic/guided: nested regions inactive (team of 1)");
}

/* ------------------------------------------------------------------ */
/* Table: hybrid                                                       */

static size_t hybrid_chunk(int P) {
  return std::min<size_t>(2048, std::max<size_t>(1, opt.hybrid_n / (8 * (size_t)P)));
}

static void hybrid_cases(int P, tbb::task_arena &arena) {
  const size_t n = opt.hybrid_n, C = hybrid_chunk(P);
  const int steps = opt.hybrid_steps;
  const std::vector<peer> peers = {
      {"omp static", FAM_OMP, OMP_STATIC, C},   {"omp dynamic,C", FAM_OMP, OMP_DYNAMIC, C},
      {"omp guided,C", FAM_OMP, OMP_GUIDED, C}, {"tbb auto", FAM_TBB, TBB_AUTO, 1},
      {"tbb simple,C", FAM_TBB, TBB_SIMPLE, C}, {"tbb affinity", FAM_TBB, TBB_AFFINITY, 1}};
  for (int unbalanced = 0; unbalanced <= 1; unbalanced++) {
    auto off = std::make_shared<std::vector<size_t>>(hy_offsets(n, opt.hybrid_elems, unbalanced));
    size_t total = off->back();
    double *a = alloc_array<double>(total), *ref = alloc_array<double>(total);
    int *owner = alloc_array<int>(n);
    hit_counter *hits = alloc_array<hit_counter>(HY_MAX_IDS);
    hy_data d = {a, off->data(), n, owner, hits};
    auto reset = [=] {
      for (size_t k = 0; k < total; k++) a[k] = 1.0 + (double)(k & 255) * 1e-3;
      for (size_t i = 0; i < n; i++) owner[i] = -1;
      memset(hits, 0, HY_MAX_IDS * sizeof(hit_counter));
    };
    reset();
    hy_seq(d, steps);
    memcpy(ref, a, total * sizeof(double));
    kernel k;
    k.seq = [=] { hy_seq(d, steps); };
    k.adapt = [=](const adapt_attr *at) { return hy_adapt(d, steps, at); };
    k.omp = [=](omp_kind kind, int chunk) { hy_omp(kind, chunk, P, d, steps); };
    k.tbb = [=, &arena](tbb_kind kind, tbb::affinity_partitioner *ap, size_t grain) {
      hy_tbb(kind, arena, ap, d, steps, grain);
    };
    std::vector<variant> v = variants_of(k, ALL_SCHEDS, 0, peers);
    std::string note =
        fmt("%d steps x parallel loop of %zu iterations, %zu doubles (%.2f MiB) in stride-13 "
            "order, lengths %zu..%zu; chunk C = min(2048, n/8P) = %zu (P=1), %zu (P=2); adapt "
            "schedulers at their default grain",
            steps, n, total, (double)total * 8 / 1048576.0, (*off)[1] - (*off)[0],
            (*off)[n] - (*off)[n - 1], hybrid_chunk(1), hybrid_chunk(2));
    run_sched_case(
        "hybrid", unbalanced ? "unbalanced" : "balanced", P, rounds(), v, [=](size_t) { reset(); },
        [=](size_t) -> std::string {
          for (size_t i = 0; i < n; i++)
            if (owner[i] < 0) return "iteration " + std::to_string(i) + " never ran";
          return check_equal(a, ref, total, "array differs from the sequential one");
        },
        note, [=](size_t i) { return i == 0 ? NAN : hy_affinity(d, steps); }); /* 0: Ts */
    free(a);
    free(ref);
    free(owner);
    free(hits);
  }
}

/* ------------------------------------------------------------------ */
/* Table: lazy                                                         */

static void lazy_cases(int P, tbb::task_arena &arena) {
  int nq = opt.lazy_nqueens, fn = opt.fib;
  run_count_case("lazy", fmt("nqueens n=%d", nq), P, slow_rounds(), nqueens_kernel(nq, P, arena),
                 LAZY_TABLE_SCHEDS,
                 peers_of({LAZY_TBB, {{"omp taskloop,1", FAM_OMP, OMP_TASKS, 1}}}), "count",
                 nq_known(nq),
                 "declarative: a grain-1 parallel loop over the columns of every row, no cut-off");
  count_kernel fib;
  fib.seq = [=] { return fib_seq(fn); };
  fib.adapt = [=](const adapt_attr *at) { return fib_adapt(fn, at); };
  fib.omp_tasks = [=] { return fib_omp_tasks(P, fn); };
  fib.tbb = [=, &arena](tbb_kind kind) { return fib_tbb(kind, arena, fn); };
  run_count_case("lazy", fmt("fib(%d)", fn), P, rounds(), fib, LAZY_TABLE_SCHEDS,
                 peers_of({LAZY_TBB, {{"omp tasks", FAM_OMP, OMP_TASKS, 1}}}), "fib", -1,
                 "a 2-iteration grain-1 parallel loop at every level (omp: task + taskwait), no "
                 "cut-off");
}

/* ------------------------------------------------------------------ */
/* Report                                                              */

static const case_result *find_case(const std::string &table, const std::string &bench, int P) {
  for (const case_result &c : results)
    if (c.group == table && c.name == bench && c.workers == P) return &c;
  return NULL;
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

static row_fig figures_of(const case_result &c, int i) {
  row_fig f;
  f.fail = c.fail[(size_t)i];
  if (!c.ok(i)) return f;
  f.ok = true;
  std::vector<double> ms = c.scaled(i, 1e3);
  f.ms = median(ms);
  f.p25 = quantile(ms, 0.25);
  f.p75 = quantile(ms, 0.75);
  if (c.ok(c.seq())) {
    std::vector<double> sp = c.paired(c.seq(), i);
    f.speedup = median(sp);
    f.sp25 = quantile(sp, 0.25);
    f.sp75 = quantile(sp, 0.75);
  }
  int b = c.fastest({FAM_OMP, FAM_TBB});
  if (b >= 0) {
    f.vs_peer = median(c.paired(i, b));
    f.peer = c.names[(size_t)b];
  }
  std::vector<double> aff;
  for (double x : c.extra[(size_t)i])
    if (!std::isnan(x)) aff.push_back(x);
  if (!aff.empty()) f.affinity = median(aff);
  return f;
}

static row_fig fig(const std::string &table, const std::string &bench, int P,
                   const std::string &name) {
  const case_result *c = find_case(table, bench, P);
  int i = c ? c->index(name) : -1;
  return i < 0 ? row_fig() : figures_of(*c, i);
}

/* Benches of a table in run order, and the variant names of a bench in
 * run order (union over the worker counts). */
static std::vector<std::string> benches_of(const std::string &table) {
  std::vector<std::string> b;
  for (const case_result &c : results)
    if (c.group == table && std::find(b.begin(), b.end(), c.name) == b.end()) b.push_back(c.name);
  return b;
}

static std::vector<std::string> names_of(const std::string &table, const std::string &bench) {
  std::vector<std::string> v;
  for (const case_result &c : results)
    if (c.group == table && c.name == bench)
      for (const std::string &n : c.names)
        if (std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
  return v;
}

/* "1.23x [p25 p75]" of the paired a/b ratio in one case. */
static std::string ratio_text(const std::string &table, const std::string &bench, int P,
                              const std::string &a, const std::string &b) {
  const case_result *c = find_case(table, bench, P);
  if (!c) return "-";
  int ia = c->index(a), ib = c->index(b);
  if (ia < 0 || ib < 0 || !c->fail[(size_t)ia].empty() || !c->fail[(size_t)ib].empty())
    return "n/a (failed)";
  std::vector<double> r = c->paired(ia, ib);
  if (r.empty()) return "-";
  return fmt("%.2fx [%.2f %.2f]", median(r), quantile(r, 0.25), quantile(r, 0.75));
}

/* Under a table: the notes of its benches first, the failures last. */
static std::string notes_text(const std::string &table) {
  std::string s;
  for (const std::string &b : benches_of(table)) {
    const case_result *c = find_case(table, b, 1);
    if (!c) c = find_case(table, b, 2);
    if (c && !c->note.empty()) s += fmt("   %s: %s\n", b.c_str(), c->note.c_str());
  }
  return s;
}

static std::string failures_text(const std::string &table) {
  std::string s;
  for (const case_result &c : results)
    if (c.group == table)
      for (size_t i = 0; i < c.names.size(); i++)
        if (!c.fail[i].empty())
          s += fmt("   FAILED: %s, P=%d, %s: %s\n", c.name.c_str(), c.workers, c.names[i].c_str(),
                   c.fail[i].c_str());
  return s;
}

/* The best-peer and noise lines under a bench. */
static std::string peer_lines(const std::string &table, const std::string &bench) {
  std::string s;
  for (int P = 1; P <= 2; P++) {
    const case_result *c = find_case(table, bench, P);
    if (!c) continue;
    int bp = c->fastest({FAM_OMP, FAM_TBB});
    s += fmt("   P=%d: best peer %s; noise (other processes + hypervisor) %.0f%%%s\n", P,
             bp >= 0 ? c->names[(size_t)bp].c_str() : "none", 100 * c->noise,
             c->noise > 0.10 ? "  -- NOISY" : "");
  }
  return s;
}

/* micro and lazy: ms, speedup and ratio to the best peer at P = 1 and 2. */
static std::string report_speed_table(const std::string &table, const std::string &title) {
  std::string s = "\n== " + title + "\n" + notes_text(table);
  s += fmt("   %d timed rounds (nqueens: %d), medians; speedup = Ts/Tp paired per round, \"vs "
           "peer\" = Tp / T(best OpenMP/TBB variant of that row's P), < 1 is faster\n",
           rounds(), slow_rounds());
  for (const std::string &b : benches_of(table)) {
    s += fmt("\n   %-18s | %-36s | %-36s\n", b.c_str(), "P=1: ms       Ts/T1   vs peer",
             "P=2: ms       Ts/T2   vs peer");
    for (const std::string &name : names_of(table, b)) {
      std::string cell[2];
      for (int P = 1; P <= 2; P++) {
        row_fig f = fig(table, b, P, name);
        cell[P - 1] = !f.fail.empty() ? "FAILED"
                      : !f.ok         ? "-"
                                      : fmt("%9.2f  %7.3f  %7.2f", f.ms, f.speedup, f.vs_peer);
      }
      s += fmt("   %-18s | %-36s | %-36s\n", name.c_str(), cell[0].c_str(), cell[1].c_str());
    }
    s += peer_lines(table, b);
  }
  return s;
}

static std::string report_micro(void) {
  std::string s =
      report_speed_table("micro", "Table 1 (micro): loop-frame thesis microbenchmarks at grain 1");
  s += "\n   dac / loopframe time ratio (thesis: daxpy 2.7x, mandelbrot 2x, nqueens 1.3x), "
       "median [p25 p75] of per-round ratios:\n";
  std::string dac = sched_label(ADAPT_SCHED_DAC), lf = sched_label(ADAPT_SCHED_LOOPFRAME);
  for (const std::string &b : benches_of("micro"))
    s += fmt("   %-18s P=1 %-24s P=2 %s\n", b.c_str(), ratio_text("micro", b, 1, dac, lf).c_str(),
             ratio_text("micro", b, 2, dac, lf).c_str());
  return s + failures_text("micro");
}

/* The scheduler of `scheds` with the lowest median time in one case; *ms
 * gets that time (NaN if none ran). */
static std::string fastest_sched(const std::string &bench, int P,
                                 std::initializer_list<adapt_sched> scheds, double *ms) {
  std::string best;
  *ms = NAN;
  for (adapt_sched s : scheds) {
    row_fig f = fig("lazy", bench, P, sched_label(s));
    if (f.ok && (std::isnan(*ms) || f.ms < *ms)) {
      *ms = f.ms;
      best = adapt_sched_name(s);
    }
  }
  return best;
}

static std::string report_lazy(void) {
  std::string s = report_speed_table(
      "lazy", "Table 3 (lazy): declarative nqueens and fib, nested grain-1 loops, no cut-off");
  s += "\n   best eager / best lazy adapt scheduler (time ratio of the medians, > 1: lazy "
       "faster):\n";
  for (const std::string &b : benches_of("lazy")) {
    std::string line = fmt("   %-18s", b.c_str());
    for (int P = 1; P <= 2; P++) {
      double be, bl;
      std::string ne =
          fastest_sched(b, P, {ADAPT_SCHED_DAC, ADAPT_SCHED_LOOPFRAME, ADAPT_SCHED_ADAPTIVE}, &be);
      std::string nl = fastest_sched(
          b, P, {ADAPT_SCHED_LAZY_DF, ADAPT_SCHED_LAZY_DF2, ADAPT_SCHED_LAZY_BF}, &bl);
      line += fmt(" P=%d: %s / %s = %s ", P, ne.c_str(), nl.c_str(), num(be / bl, "%.2f").c_str());
    }
    s += line + "\n";
  }
  return s + failures_text("lazy");
}

static std::string report_hybrid(void) {
  std::string s =
      "\n== Table 2 (hybrid): iterative balanced / unbalanced microbenchmarks (hybrid-loop "
      "paper)\n" +
      notes_text("hybrid");
  s += fmt("   %d timed rounds (medians); Ts/T1 = work efficiency, Ts/T2 = speedup (paired per "
           "round), T1/T2 = scalability (ratio of medians);\n   affinity = share of iterations "
           "run by the same worker/thread as in the previous step, P=2; vs peer = T2 / T2(best "
           "peer)\n",
           rounds());
  for (const std::string &b : benches_of("hybrid")) {
    s += fmt("\n   %-18s %9s %9s %8s %8s %8s %10s %8s\n", b.c_str(), "T1 ms", "T2 ms", "Ts/T1",
             "Ts/T2", "T1/T2", "affinity", "vs peer");
    for (const std::string &name : names_of("hybrid", b)) {
      row_fig f1 = fig("hybrid", b, 1, name), f2 = fig("hybrid", b, 2, name);
      if (!f1.fail.empty() || !f2.fail.empty()) {
        s += fmt("   %-18s FAILED\n", name.c_str());
        continue;
      }
      s += fmt("   %-18s %9s %9s %8s %8s %8s %10s %8s\n", name.c_str(), num(f1.ms, "%.2f").c_str(),
               num(f2.ms, "%.2f").c_str(), num(f1.speedup, "%.3f").c_str(),
               num(f2.speedup, "%.3f").c_str(), num(f1.ms / f2.ms, "%.3f").c_str(),
               num(f2.affinity * 100, "%.2f%%").c_str(), num(f2.vs_peer, "%.2f").c_str());
    }
    s += peer_lines("hybrid", b);
  }
  return s + failures_text("hybrid");
}

static void write_table_csv(const std::string &path, const std::string &table,
                            const run_info &run) {
  csv_writer w(path, "date,host,commit,table,bench,workers,impl,family,rounds,median_ms,p25_ms,"
                     "p75_ms,speedup_vs_seq,speedup_p25,speedup_p75,ratio_to_best_peer,best_peer,"
                     "affinity_pct,noise_pct,status");
  for (const case_result &c : results) {
    if (c.group != table) continue;
    for (int i = 0; i < (int)c.names.size(); i++) {
      row_fig g = figures_of(c, i);
      w.text(run.when).text(run.host).text(run.commit).word(table).text(c.name);
      w.integer(c.workers).text(c.names[(size_t)i]).word(family_name(c.fams[(size_t)i]));
      w.integer((long long)c.t[(size_t)i].size()).number(g.ms).number(g.p25).number(g.p75);
      w.number(g.speedup).number(g.sp25).number(g.sp75).number(g.vs_peer).text(g.peer);
      w.number(g.affinity * 100).number(c.noise * 100);
      w.text(g.fail.empty() ? "ok" : "FAILED: " + g.fail);
      w.end_row();
    }
  }
}

/* ------------------------------------------------------------------ */
/* Under callgrind                                                     */

/* --callgrind F,Q: Table 3's kernels on one worker, fib(F) and nqueens
 * n=Q, sequential and adapt at grain 1 under each scheduler
 * of the table (a wrong count fails the variant); labels
 * "sched-<kernel>:<variant>:n=1|2" (bench/scripts/kernels_callgrind.sh sched keeps
 * n=2). */
static int callgrind_mode(void) {
  adapt_start(1);
  const int fn = opt.fib, nq = opt.lazy_nqueens;
  const long fib_ref = fib_seq(fn), nq_ref = nq_seq(nq);
  struct kern {
    const char *name;
    std::function<long()> seq;
    std::function<long(const adapt_attr *)> par;
    long ref;
  } kernels[] = {{"fib", [=] { return fib_seq(fn); },
                  [=](const adapt_attr *a) { return fib_adapt(fn, a); }, fib_ref},
                 {"nqueens", [=] { return nq_seq(nq); },
                  [=](const adapt_attr *a) { return nq_adapt(nq, a); }, nq_ref}};
  int rc = 0;
  for (const kern &k : kernels) {
    auto make = [&](size_t) {
      std::vector<variant> v;
      v.push_back({"sequential", FAM_SEQ, [k] { return k.seq() == k.ref ? 0 : -EPROTO; }});
      for (adapt_sched s : LAZY_TABLE_SCHEDS)
        v.push_back({sched_label(s), FAM_ADAPT, [k, s] {
                       adapt_attr a = make_attr(1, s);
                       return k.par(&a) == k.ref ? 0 : -EPROTO;
                     }});
      return v;
    };
    rc |= callgrind_counts((std::string("sched-") + k.name).c_str(), 1, make);
  }
  adapt_finalize();
  return rc;
}

/* ------------------------------------------------------------------ */
/* main                                                                */

static void parse_options(int argc, char **argv) {
  cli c;
  c.text("--out", "DIR", &opt.out);
  c.list("--tables", {"micro", "hybrid", "lazy"}, &opt.tables);
  c.integer("--reps", "N", 1, 1000, &opt.reps);
  c.integer("--slow-reps", "N", 1, 1000, &opt.slow_reps);
  c.flag("--quick", [] {
    opt.quick = true;
    opt.daxpy_n = (size_t)1 << 18;
    opt.mandel_side = 128;
    opt.nqueens = opt.lazy_nqueens = 9;
    opt.fib = 20;
    opt.hybrid_steps = 10;
  });
  c.real("--gap-ms", "MS", [](double ms) { opt.gap_ns = (long long)(ms * 1e6); });
  c.text("--commit", "STR", &opt.commit);
  c.flag("--report", [] { opt.report = true; });
  c.integer("--daxpy-n", "N", 1, 1LL << 30, &opt.daxpy_n);
  c.integer("--mandel-side", "N", 1, 1 << 14, &opt.mandel_side);
  c.integer("--mandel-maxit", "N", 1, 1 << 20, &opt.mandel_maxit);
  c.integer("--nqueens", "N", 1, 15, &opt.nqueens);
  c.integer("--lazy-nqueens", "N", 1, 15, &opt.lazy_nqueens);
  c.integer("--fib", "N", 2, 40, &opt.fib);
  c.integer("--hybrid-n", "N", 16, 1 << 24, &opt.hybrid_n);
  c.integer("--hybrid-elems", "N", 1024, 1LL << 30, &opt.hybrid_elems);
  c.integer("--hybrid-steps", "N", 2, 100000, &opt.hybrid_steps);
  c.integers("--workers", "LIST", 1, 1024, &opt.workers);
  c.hidden("--callgrind", [&c](const char *v) {
    if (sscanf(v, "%d,%d", &opt.fib, &opt.lazy_nqueens) != 2 || opt.fib < 2 || opt.fib > 40 ||
        opt.lazy_nqueens < 1 || opt.lazy_nqueens > 15)
      c.usage();
    opt.callgrind = true;
  });
  c.parse(argc, argv);
}

int main(int argc, char **argv) {
  bench_prog = "bench_sched";
  parse_options(argc, argv);
  if (opt.callgrind) return callgrind_mode();
  run_info run = start_run(peer_versions(), opt.commit.empty() ? "?" : opt.commit);
  if (opt.quick) {
    run.header += "   --quick: 3 rounds, small sizes: figures NOT meaningful\n";
    printf("   --quick: 3 rounds, small sizes: figures NOT meaningful\n");
  }
  run.commit = opt.commit;

  /* Nested OpenMP parallel regions run with a team of one (the default of
   * libgomp when OMP_NESTED / OMP_MAX_ACTIVE_LEVELS are unset). */
  omp_set_max_active_levels(1);
  peer_pools pools(opt.workers);
  std::string noise_lines;
  std::vector<section> sections;
  for (int P : opt.workers) {
    sections.push_back({"micro", P, [P, &pools] { micro_cases(P, pools.of(P)); }});
    sections.push_back({"hybrid", P, [P, &pools] { hybrid_cases(P, pools.of(P)); }});
    sections.push_back({"lazy", P, [P, &pools] { lazy_cases(P, pools.of(P)); }});
  }
  section_hooks hooks;
  hooks.phase_begin = [&](int P) {
    printf("\n-- %d worker(s)\n", P);
    if (P == 1) return;
    std::string aff = affinity_report(pools.of(P));
    printf("%s", aff.c_str());
    run.header += aff;
  };
  hooks.phase_end = [&](int P, const noise_mark &since) {
    noise_lines += noise_line(since, fmt("the %d-worker phase", P), NULL, NULL);
  };
  run_sections(sections, opt.tables, hooks);

  mkdirs(opt.out);
  run.header += load_at_end();
  struct {
    const char *name;
    std::string (*report)(void);
  } tables[] = {{"micro", report_micro}, {"hybrid", report_hybrid}, {"lazy", report_lazy}};
  for (auto &t : tables) {
    if (!opt.tables.count(t.name)) continue;
    std::string text = t.report();
    printf("%s", text.c_str());
    std::string path = opt.out + "/sched_" + t.name + ".txt";
    write_text_file(path, run.header + text + noise_lines);
    write_table_csv(opt.out + "/sched_" + t.name + ".csv", t.name, run);
  }
  printf("\n%s", noise_lines.c_str());
  write_samples_csv(opt.out + "/sched_samples.csv",
                    "table,bench,workers,impl,round,seconds,affinity", run);
  printf("\nText and CSV: %s/sched_*.txt, sched_*.csv, sched_samples.csv\n", opt.out.c_str());
  int rc = 0;
  if (opt.report &&
      (python_report("sched_plot.py", {opt.out}, "") != 0 ||
       python_report("sched_plot.py", {"--markdown", opt.out}, opt.out + "/sched_report.md") != 0))
    rc = 1;
  if (any_failure) {
    fprintf(stderr, "bench_sched: some variants FAILED (see the tables)\n");
    rc = 3;
  }
  return rc;
}
