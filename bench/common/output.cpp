/* Headers, noise lines, formatting, CSV, counters and the report hook of the
 * benchmarks (output.hpp). */
#include "output.hpp"
#include "harness.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>

extern char **environ;

std::string fmt(const char *format, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, format);
  vsnprintf(buf, sizeof buf, format, ap);
  va_end(ap);
  return buf;
}

std::string num(double v, const char *f) { return std::isnan(v) ? "-" : fmt(f, v); }

run_info start_run(const std::string &peers, const std::string &commit) {
  struct utsname un;
  uname(&un);
  run_info r;
  r.when = utc_now();
  r.host = un.nodename;
  r.commit = commit;
  r.header =
      fmt("%s: libadapt %d.%d%s vs %s\n", bench_prog, ADAPT_VERSION_MAJOR, ADAPT_VERSION_MINOR,
          commit.empty() ? "" : (" (commit " + commit + ")").c_str(), peers.c_str());
  r.machine = fmt("%s, %s, %ld CPUs online", cpu_model().c_str(), cpu_caches().c_str(),
                  sysconf(_SC_NPROCESSORS_ONLN));
  r.header += fmt("   %s, host %s, %s, kernel %s, gcc %s\n", r.when.c_str(), r.host.c_str(),
                  r.machine.c_str(), un.release, __VERSION__);
  r.header += fmt("   load average at start: %s\n", loadavg().c_str());
  for (const char *v : {"ADAPT_WORKERS", "ADAPT_GRAIN", "ADAPT_SCHED", "ADAPT_BIND",
                        "ADAPT_SPIN_US", "ADAPT_PAPI_EVENTS", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT",
                        "OMP_PROC_BIND", "OMP_MAX_ACTIVE_LEVELS", "OMP_NESTED"})
    if (getenv(v)) r.header += fmt("   note: %s=%s is set\n", v, getenv(v));
  printf("%s", r.header.c_str());
  fflush(stdout);
  return r;
}

std::string load_at_end(void) { return fmt("   load average at end: %s\n", loadavg().c_str()); }

std::string noise_line(const noise_mark &since, const std::string &during, double *others,
                       double *steal) {
  double o = 0, st = 0, seconds = 0;
  if (!noise_shares(since, noise_now(), &o, &st, &seconds)) return "";
  if (others) *others = 100 * o;
  if (steal) *steal = 100 * st;
  return fmt("   noise: other processes used %.0f%% and the hypervisor stole %.0f%% of the %ld CPUs"
             " during %s (%.1f s)%s\n",
             100 * o, 100 * st, sysconf(_SC_NPROCESSORS_ONLN), during.c_str(), seconds,
             o + st > 0.10 ? "  -- NOISY: re-run for figures to quote" : "");
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */

csv_writer::csv_writer(const std::string &path, const std::string &header) {
  f_ = fopen(path.c_str(), "w");
  if (!f_) fatal("cannot write %s: %s", path.c_str(), strerror(errno));
  fprintf(f_, "%s\n", header.c_str());
}

csv_writer::~csv_writer() { fclose(f_); }

void csv_writer::sep(void) {
  if (!first_) fputc(',', f_);
  first_ = false;
}

csv_writer &csv_writer::text(const std::string &s) {
  sep();
  fputs(csv_quote(s).c_str(), f_);
  return *this;
}

csv_writer &csv_writer::word(const std::string &s) {
  sep();
  fputs(s.c_str(), f_);
  return *this;
}

csv_writer &csv_writer::number(double v, const char *f) {
  sep();
  if (!std::isnan(v)) fprintf(f_, f, v);
  return *this;
}

csv_writer &csv_writer::integer(long long v) {
  sep();
  fprintf(f_, "%lld", v);
  return *this;
}

void csv_writer::end_row(void) {
  fputc('\n', f_);
  first_ = true;
}

void write_samples_csv(const std::string &path, const std::string &columns, const run_info &run) {
  std::vector<std::string> cols;
  for (size_t p = 0; p <= columns.size();) {
    size_t q = std::min(columns.find(',', p), columns.size());
    cols.push_back(columns.substr(p, q - p));
    p = q + 1;
  }
  csv_writer w(path, columns);
  for (const sample &s : bench_samples) {
    for (const std::string &c : cols) {
      if (c == "date")
        w.text(run.when);
      else if (c == "host")
        w.text(run.host);
      else if (c == "section" || c == "table")
        w.word(s.group);
      else if (c == "case" || c == "bench")
        w.text(s.kase);
      else if (c == "implementation" || c == "impl")
        w.text(s.impl);
      else if (c == "workers")
        w.integer(s.workers);
      else if (c == "round")
        w.integer(s.round);
      else if (c == "iterations")
        w.number(s.n, "%.0f");
      else if (c == "seconds")
        w.number(s.seconds, "%.9f");
      else if (c == "affinity")
        w.number(s.extra, "%.6f");
      else
        fatal("write_samples_csv: unknown column %s", c.c_str());
    }
    w.end_row();
  }
}

/* ------------------------------------------------------------------ */
/* Counters and the report hook                                        */

static void force_pmu_for_zen(void) {
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

bool counters_open(perfctr *pc, const char *events) {
  force_pmu_for_zen();
  return perfctr_init(pc, events) == 0;
}

int python_report(const std::string &script, const std::vector<std::string> &args,
                  const std::string &stdout_path) {
  const char *dir = getenv("BENCH_SCRIPTS_DIR");
  std::string path = std::string(dir && *dir ? dir : "bench/scripts") + "/" + script;
  std::vector<std::string> all = {"/usr/bin/python3", path};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &a : all) argv.push_back(&a[0]);
  argv.push_back(NULL);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!stdout_path.empty())
    posix_spawn_file_actions_addopen(&fa, 1, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  fflush(stdout);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  if (rc != 0 || waitpid(pid, &status, 0) < 0) {
    fprintf(stderr, "%s: cannot run %s: %s\n", bench_prog, path.c_str(), strerror(rc ? rc : errno));
    return 127;
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  if (code != 0)
    fprintf(stderr, "%s: %s failed (status %d)\n", bench_prog, path.c_str(), code);
  else if (!stdout_path.empty())
    printf("Report: %s\n", stdout_path.c_str());
  return code;
}
