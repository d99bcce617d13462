/* The benchmark harness: alternating rounds, checks, samples, sections,
 * the callgrind mode and the process-level helpers (harness.hpp). */
#include "harness.hpp"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <cmath>

#include "callgrind.hpp"

const char *bench_prog = "bench";
std::vector<sample> bench_samples;

void fatal(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  fprintf(stderr, "%s: ", bench_prog);
  vfprintf(stderr, format, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(2);
}

void *xmalloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes) != 0) fatal("out of memory (%zu bytes)", bytes);
  return p;
}

void adapt_start(int workers) {
  adapt_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.workers = workers;
  int rc = adapt_init(&cfg);
  if (rc != 0) fatal("adapt_init(%d workers): %s", workers, adapt_strerror(rc));
  if (adapt_num_workers() != workers)
    fatal("asked for %d adapt workers, runtime has %d", workers, adapt_num_workers());
}

std::string sched_label(adapt_sched s) {
  const char *n = adapt_sched_name(s);
  return std::string("adapt ") + (n ? n : "?");
}

static std::atomic<int> nested_rc{0};

void note_nested_rc(int rc) {
  int zero = 0;
  if (rc != 0) nested_rc.compare_exchange_strong(zero, rc, std::memory_order_relaxed);
}

steal_counts adapt_steal_counts(void) {
  steal_counts s = {0, 0, 0, 0, 0};
  for (int w = 0; w < adapt_num_workers(); w++) {
    adapt_worker_stats st;
    if (adapt_stats_get(w, &st) == 0) {
      s.posted += st.requests_posted;
      s.steals += st.steals;
      s.timeouts += st.requests_timeout;
      s.served += st.requests_served;
      s.splits += st.splits;
    }
  }
  return s;
}

const char *family_name(family f) {
  switch (f) {
  case FAM_SEQ: return "sequential";
  case FAM_ADAPT: return "adapt";
  case FAM_OMP: return "openmp";
  case FAM_TBB: return "tbb";
  case FAM_PTHREAD: return "pthread";
  }
  return "?";
}

/* ------------------------------------------------------------------ */
/* case_result                                                         */

int case_result::index(const std::string &variant_name) const {
  for (size_t i = 0; i < names.size(); i++)
    if (names[i] == variant_name) return (int)i;
  return -1;
}

int case_result::seq(void) const {
  for (size_t i = 0; i < fams.size(); i++)
    if (fams[i] == FAM_SEQ) return (int)i;
  return -1;
}

bool case_result::ok(int i) const {
  return i >= 0 && fail[(size_t)i].empty() && !t[(size_t)i].empty();
}

bool case_result::any_failure(void) const {
  for (const std::string &f : fail)
    if (!f.empty()) return true;
  return false;
}

std::vector<double> case_result::paired(int a, int b) const {
  std::vector<double> r;
  if (a < 0 || b < 0) return r;
  const std::vector<double> &ta = t[(size_t)a], &tb = t[(size_t)b];
  for (size_t k = 0; k < std::min(ta.size(), tb.size()); k++) r.push_back(ta[k] / tb[k]);
  return r;
}

std::vector<double>
case_result::paired_per_unit(int i, int base,
                             const std::function<double(double, double)> &f) const {
  std::vector<double> r;
  if (i < 0 || base < 0) return r;
  const std::vector<double> &ti = t[(size_t)i], &tb = t[(size_t)base];
  for (size_t k = 0; k < std::min(ti.size(), tb.size()); k++)
    r.push_back(f(ti[k] / n[(size_t)i], tb[k] / n[(size_t)base]));
  return r;
}

std::vector<double> case_result::paired_counts(int i, int base, int event) const {
  std::vector<double> r;
  const auto &ci = counts[(size_t)i], &cb = counts[(size_t)base];
  for (size_t k = 0; k < std::min(ci.size(), cb.size()); k++)
    r.push_back((double)ci[k][(size_t)event] / n[(size_t)i] -
                (double)cb[k][(size_t)event] / n[(size_t)base]);
  return r;
}

std::vector<double> case_result::scaled(int i, double factor) const {
  std::vector<double> r;
  for (double s : t[(size_t)i]) r.push_back(s * factor);
  return r;
}

int case_result::fastest(std::initializer_list<family> among) const {
  int best = -1;
  double bt = 0;
  for (size_t i = 0; i < names.size(); i++) {
    bool in = false;
    for (family f : among) in = in || fams[i] == f;
    if (!in || !ok((int)i)) continue;
    double m = median(t[i]);
    if (best < 0 || m < bt) {
      best = (int)i;
      bt = m;
    }
  }
  return best;
}

/* ------------------------------------------------------------------ */
/* run_case                                                            */

size_t round_order(size_t m, size_t r, size_t k) {
  const size_t block = m % 2 == 0 ? m : 2 * m, rr = r % block;
  if (rr >= m) k = m - 1 - k;
  const size_t s = k == 0 ? 0 : k % 2 == 1 ? (k + 1) / 2 : m - k / 2;
  return (s + rr) % m;
}

case_result run_case(const case_spec &spec, const std::vector<variant> &v) {
  size_t m = v.size();
  size_t nev = spec.counters ? (size_t)spec.counters->nevents : 0;
  case_result cr;
  cr.group = spec.group;
  cr.name = spec.name;
  cr.workers = spec.workers;
  cr.rounds = spec.rounds;
  cr.t.assign(m, {});
  cr.extra.assign(m, {});
  cr.counts.assign(m, {});
  cr.fail.assign(m, "");
  for (size_t i = 0; i < m && i < spec.skip.size(); i++)
    if (spec.skip[i]) cr.fail[i] = "skipped";
  for (const variant &x : v) {
    cr.names.push_back(x.name);
    cr.fams.push_back(x.fam);
    cr.n.push_back(x.n > 0 ? x.n : spec.n > 0 ? spec.n : 1);
  }
  double t_start = now_s();
  noise_mark nm = noise_now();
  auto one = [&](size_t i, int round) {
    if (!cr.fail[i].empty()) return;
    if (spec.prepare) spec.prepare(i);
    if (spec.gap_ns > 0) sleep_ns(spec.gap_ns);
    std::vector<long long> counts(nev);
    nested_rc.store(0, std::memory_order_relaxed);
    if (nev && round >= 0) perfctr_start(spec.counters);
    double t0 = now_s();
    int rc = v[i].run();
    double t1 = now_s();
    if (nev && round >= 0) perfctr_stop(spec.counters, counts.data());
    int nrc = nested_rc.load(std::memory_order_relaxed);
    std::string why;
    if (rc != 0 || nrc != 0)
      why = std::string("adapt returned ") + adapt_strerror(rc != 0 ? rc : nrc) +
            (rc != 0 ? "" : " (nested)");
    else if (spec.check && (round < 0 || spec.check_every_run))
      why = spec.check(i);
    if (!why.empty()) {
      cr.fail[i] = why + (round < 0 ? " (warm-up)" : " (round " + std::to_string(round) + ")");
      fprintf(stderr, "%s: %s, %s, %d worker(s): %s FAILED: %s\n", bench_prog, spec.group.c_str(),
              spec.name.c_str(), spec.workers, v[i].name.c_str(), cr.fail[i].c_str());
      if (spec.stop_on_failure) exit(3);
      return;
    }
    if (round < 0) return;
    double x = spec.extra ? spec.extra(i) : NAN;
    cr.t[i].push_back(t1 - t0);
    cr.extra[i].push_back(x);
    cr.counts[i].push_back(counts);
    bench_samples.push_back(sample{spec.group, spec.name, v[i].name, spec.workers,
                                   spec.first_round + round, cr.n[i], t1 - t0, x});
  };
  for (size_t i = 0; i < m; i++) one(i, -1);
  for (int r = 0; r < spec.rounds; r++)
    for (size_t k = 0; k < m; k++) one(round_order(m, (size_t)(spec.first_round + r), k), r);
  double others = 0, steal = 0, secs = 0;
  cr.noise = noise_shares(nm, noise_now(), &others, &steal, &secs) ? others + steal : NAN;
  cr.seconds = now_s() - t_start;
  return cr;
}

void more_rounds(case_result *c, case_spec spec, const std::vector<variant> &v, int rounds) {
  if (rounds <= 0) return;
  spec.first_round = spec.first_round + c->rounds;
  spec.rounds = rounds;
  spec.skip.assign(v.size(), false);
  for (size_t i = 0; i < v.size(); i++) spec.skip[i] = !c->fail[i].empty();
  case_result more = run_case(spec, v);
  for (size_t i = 0; i < v.size(); i++) {
    if (!c->fail[i].empty()) continue;
    if (!more.fail[i].empty()) {
      c->fail[i] = more.fail[i];
      continue;
    }
    c->t[i].insert(c->t[i].end(), more.t[i].begin(), more.t[i].end());
    c->extra[i].insert(c->extra[i].end(), more.extra[i].begin(), more.extra[i].end());
    c->counts[i].insert(c->counts[i].end(), more.counts[i].begin(), more.counts[i].end());
  }
  const double secs = c->seconds + more.seconds;
  c->noise = secs > 0 ? (c->noise * c->seconds + more.noise * more.seconds) / secs : c->noise;
  c->seconds = secs;
  c->rounds += rounds;
}

/* ------------------------------------------------------------------ */
/* Sections and the callgrind mode                                     */

void run_sections(const std::vector<section> &list, const std::set<std::string> &selected,
                  const section_hooks &hooks) {
  int running = 0; /* adapt workers now, 0: stopped */
  noise_mark phase = noise_now();
  auto stop = [&] {
    if (running == 0) return;
    if (hooks.phase_end) hooks.phase_end(running, phase);
    adapt_finalize();
    running = 0;
  };
  for (const section &s : list) {
    if (!selected.count(s.name)) continue;
    if (s.workers != running) {
      stop();
      if (s.workers > 0) {
        adapt_start(s.workers);
        running = s.workers;
        phase = noise_now();
        if (hooks.phase_begin) hooks.phase_begin(running);
      }
    }
    noise_mark m = noise_now();
    s.run();
    if (hooks.section_end) hooks.section_end(s, m);
  }
  stop();
}

int callgrind_counts(const char *prefix, size_t n,
                     const std::function<std::vector<variant>(size_t size)> &make) {
  std::vector<variant> warm = make(n);
  std::vector<variant> sized[2] = {warm, make(2 * n)};
  int failed = 0;
  for (size_t i = 0; i < warm.size(); i++) {
    int rc = warm[i].run();
    for (int k = 0; k < 2 && rc == 0; k++) {
      char label[160];
      snprintf(label, sizeof label, "%s:%s:n=%zu", prefix, warm[i].name.c_str(),
               (size_t)(k + 1) * n);
      CALLGRIND_ZERO_STATS;
      rc = sized[k][i].run();
      CALLGRIND_DUMP_STATS_AT(label);
    }
    if (rc != 0) {
      fprintf(stderr, "%s: %s: %s\n", bench_prog, warm[i].name.c_str(), adapt_strerror(rc));
      failed = 1;
    }
  }
  if (!RUNNING_ON_VALGRIND)
    fprintf(stderr,
            "%s: --callgrind does nothing useful outside valgrind (bench/scripts/callgrind.sh"
            " runs it)\n",
            bench_prog);
  return failed;
}
