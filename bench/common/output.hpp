/* What the benchmarks print and write, shared by all of them: the run's
 * header (versions, machine, load, environment), noise lines, text
 * formatting, CSV files, hardware counters with the Zen PMU override, and
 * the report hook that runs a Python script of bench/scripts (Markdown tables,
 * PNG plots) with /usr/bin/python3.
 *
 * Not thread-safe: for the main thread, outside timed regions.
 */
#ifndef BENCH_COMMON_OUTPUT_HPP
#define BENCH_COMMON_OUTPUT_HPP

#include "bench_util.hpp"
#include "perfcounters.h"

#include <stdio.h>

#include <string>
#include <vector>

/* printf into a std::string (at most 1023 characters). */
std::string fmt(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* v printed with format f, "-" if v is NaN. */
std::string num(double v, const char *f);

/* The run: when, where, which commit (may be ""), and the header printed
 * first and repeated at the top of the text files. */
struct run_info {
  std::string when, host, commit, header;
  std::string machine; /* CPU model, caches, CPUs online */
};

/* Prints and returns the header: "<bench_prog>: libadapt X.Y (commit C) vs
 * <peers>", the machine, the load average, the environment variables that
 * change what is measured. */
run_info start_run(const std::string &peers, const std::string &commit);

/* "   load average at end: ...\n" */
std::string load_at_end(void);

/* "   noise: other processes used X% and the hypervisor stole Y% of the N
 * CPUs during <during> (S s)" and a NOISY mark above 10%; "" when /proc/stat
 * cannot be read. *others and *steal (may be NULL): the shares in %. */
std::string noise_line(const noise_mark &since, const std::string &during, double *others,
                       double *steal);

/* One CSV file: the header line at open, then rows of fields. Exits 2 when
 * the file cannot be opened. */
class csv_writer {
public:
  csv_writer(const std::string &path, const std::string &header);
  ~csv_writer();
  csv_writer(const csv_writer &) = delete;
  csv_writer &operator=(const csv_writer &) = delete;
  csv_writer &text(const std::string &s);               /* in double quotes */
  csv_writer &word(const std::string &s);               /* as is (no comma, no quote) */
  csv_writer &number(double v, const char *f = "%.6g"); /* "" if NaN */
  csv_writer &integer(long long v);
  void end_row(void);

private:
  FILE *f_;
  bool first_ = true;
  void sep(void);
};

/* Writes bench_samples (harness.hpp) to path with the given columns, among:
 * date, host (of run), section or table (the group), case or bench,
 * implementation or impl, workers, round, iterations (n), seconds,
 * affinity (the extra figure). */
void write_samples_csv(const std::string &path, const std::string &columns, const run_info &run);

/* Opens the hardware counters for `events` (perfctr_init). On an AMD
 * family >= 0x19 CPU with LIBPFM_FORCE_PMU unset, first sets the Zen3 PMU
 * description (Debian's PAPI 7.0 / libpfm4 predate Zen4/Zen5; the events
 * are the same) and says so. Returns true when the counters run. */
bool counters_open(perfctr *pc, const char *events);

/* The report hook: runs /usr/bin/python3 <scripts>/<script> <args...>, its
 * stdout to stdout_path when not empty; <scripts> is $BENCH_SCRIPTS_DIR,
 * else bench/scripts (the repository root is the working directory under
 * make). Returns the script's exit status (127: could not run it). */
int python_report(const std::string &script, const std::vector<std::string> &args,
                  const std::string &stdout_path);

#endif /* BENCH_COMMON_OUTPUT_HPP */
