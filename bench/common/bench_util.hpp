/* The low-level helpers of the benchmark harness (bench/common): clock,
 * quantiles, machine description, machine-noise marks, output paths and CSV
 * quoting. Header-only (every function static inline) so that the kernels
 * (bench/kernels) may use the clock without linking anything.
 *
 * Thread-safety: every function may be called from any thread; none keeps
 * state. Not for use inside timed regions except now_s().
 */
#ifndef BENCH_COMMON_BENCH_UTIL_HPP
#define BENCH_COMMON_BENCH_UTIL_HPP

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

/* Seconds on CLOCK_MONOTONIC. */
static inline double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Sleeps ns nanoseconds, resuming after signals. */
static inline void sleep_ns(long long ns) {
  struct timespec ts = {(time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/* The q-quantile (0 <= q <= 1) of v, linear interpolation between order
 * statistics; 0 for an empty v. */
static inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  double pos = q * (double)(v.size() - 1);
  size_t lo = (size_t)pos;
  size_t hi = std::min(lo + 1, v.size() - 1);
  double f = pos - (double)lo;
  return v[lo] * (1.0 - f) + v[hi] * f;
}
static inline double median(const std::vector<double> &v) { return quantile(v, 0.5); }

/* User + system CPU seconds of the whole process (all threads). */
static inline double process_cpu_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* Machine noise: how busy the other processes and the hypervisor kept the
 * CPUs between two marks (from /proc/stat and this process's rusage). */
struct noise_mark {
  double wall, self_cpu;
  unsigned long long busy, steal, total; /* clock ticks, all CPUs */
};

static inline noise_mark noise_now(void) {
  noise_mark m = {now_s(), process_cpu_s(), 0, 0, 0};
  FILE *f = fopen("/proc/stat", "r");
  if (f) {
    unsigned long long v[8] = {0};
    if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
               &v[5], &v[6], &v[7]) == 8) {
      for (int i = 0; i < 8; i++) m.total += v[i];
      m.busy = m.total - v[3] - v[4] - v[7]; /* minus idle, iowait, steal */
      m.steal = v[7];
    }
    fclose(f);
  }
  return m;
}

/* Shares (0..1) of all CPUs' time between a and b used by other processes
 * (*others) and stolen by the hypervisor (*steal); *seconds: the wall time.
 * Returns false when /proc/stat could not be read. */
static inline bool noise_shares(const noise_mark &a, const noise_mark &b, double *others,
                                double *steal, double *seconds) {
  double hz = (double)sysconf(_SC_CLK_TCK);
  double cpus = (double)sysconf(_SC_NPROCESSORS_ONLN);
  double span = (b.wall - a.wall) * cpus;
  *seconds = b.wall - a.wall;
  if (span <= 0 || b.total == 0) return false;
  double o = ((double)(b.busy - a.busy) / hz - (b.self_cpu - a.self_cpu)) / span;
  *others = o < 0 ? 0 : o;
  *steal = (double)(b.steal - a.steal) / hz / span;
  return true;
}

/* Number of CPUs the calling thread may run on, -1 on error. */
static inline int cpus_allowed(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  return CPU_COUNT(&set);
}

static inline std::string utc_now(void) {
  char buf[64];
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

static inline std::string loadavg(void) {
  char buf[128] = "?";
  FILE *f = fopen("/proc/loadavg", "r");
  if (f) {
    if (!fgets(buf, sizeof buf, f)) strcpy(buf, "?");
    fclose(f);
  }
  buf[strcspn(buf, "\n")] = 0;
  return buf;
}

static inline std::string cpu_model(void) {
  char line[256];
  std::string m = "?";
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return m;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "model name", 10) == 0) {
      char *c = strchr(line, ':');
      if (c) {
        m = c + 2;
        m.erase(m.find_last_not_of("\n ") + 1);
      }
      break;
    }
  fclose(f);
  return m;
}

/* CPU 0's data and unified caches as the kernel reports them (sysfs), e.g.
 * "L1d 48K, L2 2048K, L3 266240K"; "caches ?" when sysfs has none. The
 * figures of a run are only comparable on the same caches: the team's VMs
 * have not always been the same machine. */
static inline std::string cpu_caches(void) {
  std::string out;
  for (int i = 0; i < 16; i++) {
    char path[96], level[32] = "", type[32] = "", size[32] = ""; /* fgets below: 32 */
    const char *field[3] = {"level", "type", "size"};
    char *dst[3] = {level, type, size};
    bool ok = true;
    for (int f = 0; f < 3 && ok; f++) {
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i, field[f]);
      FILE *fp = fopen(path, "r");
      ok = fp && fgets(dst[f], 32, fp);
      if (fp) fclose(fp);
      dst[f][strcspn(dst[f], "\n")] = 0;
    }
    if (!ok) break;
    if (strcmp(type, "Instruction") == 0) continue;
    out += (out.empty() ? "" : ", ") + std::string("L") + level +
           (strcmp(type, "Data") == 0 ? "d " : " ") + size;
  }
  return out.empty() ? "caches ?" : out;
}

/* mkdir -p (errors are left to the fopen that follows). */
static inline void mkdirs(const std::string &path) {
  std::string cur;
  for (size_t i = 0; i <= path.size(); i++) {
    if (i == path.size() || path[i] == '/') {
      if (!cur.empty()) mkdir(cur.c_str(), 0755);
    }
    if (i < path.size()) cur += path[i];
  }
}

/* s as one CSV field: in double quotes, inner quotes doubled. */
static inline std::string csv_quote(const std::string &s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

#endif /* BENCH_COMMON_BENCH_UTIL_HPP */
