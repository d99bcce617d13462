/* The benchmark harness shared by bench_core, bench_sched, bench_stl and
 * bench_window.
 *
 * A case is a list of variants of one piece of work: its sequential baseline
 * (FAM_SEQ), libadapt, OpenMP, TBB or PThread versions. run_case() runs one
 * untimed warm-up round, then `rounds` timed rounds, every variant once per
 * round in a Williams order (A/B/C... interleaved, each variant at each
 * place and right after each other one alike, so that the machine's drift
 * and what a run leaves behind hit every variant alike), checks the outputs,
 * records every sample and the machine noise meanwhile; case_result answers
 * medians and per-round paired ratios against the baseline of the same case.
 * run_sections() runs a benchmark's sections in order, starting adapt with
 * the worker count each one asks for. callgrind_counts() is the --callgrind
 * mode of bench/scripts/callgrind.sh. The rest: the process-level helpers
 * every benchmark needs (fatal errors, aligned allocation, adapt_init with an
 * exact worker count, nested adapt_for errors, steal counters).
 *
 * Not thread-safe, except note_nested_rc(): one thread drives the harness.
 */
#ifndef BENCH_COMMON_HARNESS_HPP
#define BENCH_COMMON_HARNESS_HPP

#include <adapt/adapt.h>
#include <adapt/loop.h>

#include "bench_util.hpp"
#include "perfcounters.h"

#include <stdint.h>
#include <string.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

/* The program's name in messages ("bench_core"); main sets it first. */
extern const char *bench_prog;

/* Prints "<bench_prog>: <message>" on stderr and exits with status 2. */
[[noreturn]] void fatal(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* bytes of 64-byte aligned memory (free with free()); exits 2 when out of memory. */
void *xmalloc(size_t bytes);
template <class T>
T *alloc_array(size_t n) {
  return static_cast<T *>(xmalloc(n * sizeof(T)));
}

/* adapt_init with exactly `workers` workers; exits 2 otherwise. */
void adapt_start(int workers);

/* An adapt_attr with only grain and sched set. */
static inline adapt_attr make_attr(size_t grain, adapt_sched sched = ADAPT_SCHED_DEFAULT) {
  adapt_attr a;
  memset(&a, 0, sizeof a);
  a.grain = grain;
  a.sched = sched;
  return a;
}

/* "adapt <scheduler name>". */
std::string sched_label(adapt_sched s);

/* Records the first error of an adapt_for nested inside a body (a body
 * cannot return one); run_case reports it as the run's failure. Any thread. */
void note_nested_rc(int rc);

/* Steal counters summed over the workers since the last adapt_stats_reset:
 * requests posted, successful steals, timeouts, requests served (answered,
 * with work or not) and splitter calls that gave work; steals / splits is
 * the aggregation, thieves answered per splitter call. */
struct steal_counts {
  uint64_t posted, steals, timeouts, served, splits;
};
steal_counts adapt_steal_counts(void);

/* ------------------------------------------------------------------ */
/* Cases                                                               */

enum family { FAM_SEQ, FAM_ADAPT, FAM_OMP, FAM_TBB, FAM_PTHREAD };
const char *family_name(family f); /* "sequential", "adapt", "openmp", "tbb", "pthread" */

/* One implementation of a case: run() does the whole timed work and returns
 * 0 or a negative errno. n: work units of one run (iterations, elements) for
 * per-unit figures; 0 takes the case's. */
struct variant {
  std::string name;
  family fam;
  std::function<int()> run;
  double n = 0;
};

/* A variant's run() for work that reports no error: f(), then 0. */
template <class F>
std::function<int()> no_error(F f) {
  return [f] {
    f();
    return 0;
  };
}

/* For case_spec::check: "" when the n elements at got and want are bitwise
 * equal, else why. */
template <class T>
std::string check_equal(const T *got, const T *want, size_t n, const char *why) {
  return memcmp(got, want, n * sizeof(T)) == 0 ? "" : why;
}

/* How run_case runs a case. Hooks get the variant's index. */
struct case_spec {
  std::string group, name; /* section or table; case */
  int workers = 1;
  int rounds = 1;
  int first_round = 0;                 /* the first timed round's number (more_rounds) */
  std::vector<bool> skip;              /* [variant]: not run, failed ("skipped") */
  double n = 0;                        /* work units of a run, for the variants with n = 0 */
  long long gap_ns = 0;                /* pause before each run (idle threads fall asleep) */
  bool check_every_run = false;        /* check() after every run, else after the warm-up only */
  bool stop_on_failure = false;        /* exit(3) at the first failure */
  perfctr *counters = NULL;            /* read around each timed run, or NULL */
  std::function<void(size_t)> prepare; /* before each run, untimed */
  std::function<std::string(size_t)> check; /* "" or what is wrong with the output */
  std::function<double(size_t)> extra;      /* after each timed run: a figure to keep */
};

/* Measurements of one case, per variant in the order given, of the timed
 * rounds it ran (a failed variant is not run again). */
struct case_result {
  std::string group, name, note;
  int workers = 0, rounds = 0;
  std::vector<std::string> names;
  std::vector<family> fams;
  std::vector<double> n;                     /* work units of one run */
  std::vector<std::vector<double>> t, extra; /* [variant][round]: seconds, case_spec::extra */
  std::vector<std::vector<std::vector<long long>>> counts; /* [variant][round][event] */
  std::vector<std::string> fail;                           /* "" or why the variant failed */
  double noise = 0;   /* share of the CPUs other processes and the hypervisor took, NaN: unknown */
  double seconds = 0; /* wall time of the case */

  int index(const std::string &variant_name) const; /* -1 if absent */
  int seq(void) const;                              /* the first FAM_SEQ variant, -1 if none */
  bool ok(int i) const;                             /* ran every round without failure */
  bool any_failure(void) const;
  /* Per-round t[a] / t[b]; empty if either did not run. */
  std::vector<double> paired(int a, int b) const;
  /* Per-round f(t[i][r] / n[i], t[base][r] / n[base]): paired differences or
   * ratios of per-unit times. */
  std::vector<double> paired_per_unit(int i, int base,
                                      const std::function<double(double, double)> &f) const;
  /* Per-round counts[i][r][event] / n[i] - counts[base][r][event] / n[base]. */
  std::vector<double> paired_counts(int i, int base, int event) const;
  std::vector<double> scaled(int i, double factor) const; /* t[i][r] * factor */
  /* The variant of a family in `among` with the lowest median time, -1 if none. */
  int fastest(std::initializer_list<family> among) const;
};

/* The variant run k-th in round r of m variants: a Williams design. Round r
 * runs 0, 1, m-1, 2, m-2, ... shifted by r (mod m); with m odd, rounds m to
 * 2m-1 run those orders reversed. Over any m consecutive rounds (2m if m
 * is odd) each variant runs once (twice) at each place and right after
 * each other variant once (twice): what a run leaves behind (threads
 * spinning or asleep, a warm cache) falls on every variant alike. A
 * rotation alone would have each variant always follow the same one. */
size_t round_order(size_t m, size_t r, size_t k);

case_result run_case(const case_spec &spec, const std::vector<variant> &v);

/* Runs `rounds` more rounds of the case *c came from (run_case(spec, v)):
 * a warm-up round, then rounds numbered on from c's, their samples appended
 * to c's (rounds, seconds added; noise weighted by seconds). A variant that
 * failed in c is not run again. */
void more_rounds(case_result *c, case_spec spec, const std::vector<variant> &v, int rounds);

/* Every timed sample of the run, in order. */
struct sample {
  std::string group, kase, impl;
  int workers, round;
  double n, seconds, extra;
};
extern std::vector<sample> bench_samples;

/* ------------------------------------------------------------------ */
/* Sections                                                            */

/* A part of a benchmark run with `workers` adapt workers (0: adapt not
 * running), selected by name. */
struct section {
  std::string name;
  int workers;
  std::function<void()> run;
};

struct section_hooks {
  std::function<void(int workers)> phase_begin; /* adapt just started with this many workers */
  std::function<void(int workers, const noise_mark &since)> phase_end;
  std::function<void(const section &, const noise_mark &since)> section_end;
};

/* Runs the sections of `list` whose name is in `selected`, in order;
 * (re)starts adapt when the worker count changes. */
void run_sections(const std::vector<section> &list, const std::set<std::string> &selected,
                  const section_hooks &hooks);

/* --callgrind N: for each variant of make(n), one untimed run (lazy
 * initialisation out of the counts), then its runs from make(n) and
 * make(2n), each between callgrind client requests (zero the counters,
 * dump them as "<prefix>:<name>:n=<size>"). bench/scripts/callgrind.sh runs
 * it under valgrind and divides. Returns 0, or 1 if a run failed. */
int callgrind_counts(const char *prefix, size_t n,
                     const std::function<std::vector<variant>(size_t size)> &make);

#endif /* BENCH_COMMON_HARNESS_HPP */
