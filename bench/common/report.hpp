/* The verdict part of a benchmark's report: targets a case is judged on,
 * their tally over the cases (printed, and as a Markdown table), with the
 * helpers the reports share (size labels, quartiles of a sample, a text
 * file written at once). bench_stl judges its rows with them.
 *
 * Not thread-safe: for the main thread, outside timed regions.
 */
#ifndef BENCH_COMMON_REPORT_HPP
#define BENCH_COMMON_REPORT_HPP

#include <math.h>
#include <stddef.h>

#include <string>
#include <vector>

/* One target: the figure `value` passes when <= bound (at_least: >=). */
struct target {
  const char *name;
  double bound;
  bool at_least;
  double value;
  /* A miss the target cannot decide here (e.g. the machine leaves no room
   * for the margin asked). */
  bool no_room = false;
  /* A miss time cannot decide here: the 95% interval of the median
   * (median_interval) still reaches the bound. */
  bool within_noise = false;
  /* A plain miss (neither of the above) is measured again (bench_stl's
   * --recheck). */
  bool recheck = false;
};

bool target_passes(const target &t); /* NaN misses */

/* One target's verdicts over the cases. */
struct target_tally {
  const char *name;
  int pass = 0, miss = 0, no_room = 0, within_noise = 0;
  std::string misses; /* "label (figure[, no room]); ..." */
};

/* Adds the verdicts of one case (named `label` in the misses) to *ts, a
 * tally per target name in the order the names first come. */
void tally_targets(std::vector<target_tally> *ts, const std::string &label,
                   const std::vector<target> &targets);

/* Prints one line per tally ("   NAME PASS p  MISS m (k with no room: WHY;
 * j within noise: NOISE_WHY) misses: ...") and returns them as a Markdown
 * section "## Targets, <title>" whose last column is headed "misses
 * (<label_what>: figure)". */
std::string report_tallies(const std::vector<target_tally> &ts, const std::string &title,
                           const char *label_what, const char *no_room_why, const char *noise_why);

/* "1e6", "1e7", "1e8", "5e6" for multiples of a million, else the number. */
std::string size_label(size_t n);

/* The median and quartiles of a sample (bench_util.hpp's quantile: 0 when
 * empty); NaN in a quartiles not computed. */
struct quartiles {
  double p25 = NAN, median = NAN, p75 = NAN;
};
quartiles quartiles_of(const std::vector<double> &v);

/* The distribution-free 95% confidence interval of a sample's median:
 * sorted x(1) <= ... <= x(n), [x(k), x(n+1-k)] with the largest k such that
 * a Binomial(n, 1/2) is below k with probability at most 2.5%. NaN bounds
 * when n < 6 (no such k). */
struct interval {
  double lo = NAN, hi = NAN;
};
interval median_interval(std::vector<double> v);

/* Writes text to path; exits 2 (fatal) when it cannot. */
void write_text_file(const std::string &path, const std::string &text);

#endif /* BENCH_COMMON_REPORT_HPP */
