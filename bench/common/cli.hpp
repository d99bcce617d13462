/* Command-line options of the benchmarks: each option is declared once
 * (name, value placeholder, what to do with the value) and the usage line
 * is generated from the declarations. parse() handles the arguments in
 * order, so a later option overrides an earlier one; an unknown option, a
 * missing or bad value prints the usage and exits with status 2.
 *
 * Not thread-safe: for main().
 */
#ifndef BENCH_COMMON_CLI_HPP
#define BENCH_COMMON_CLI_HPP

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

class cli {
public:
  /* extra_usage: more lines after the generated one (other modes). */
  explicit cli(std::string extra_usage = "") : extra_(std::move(extra_usage)) {}

  void flag(const char *name, std::function<void()> on);
  void text(const char *name, const char *meta, std::string *out);
  /* An integer in [lo, hi]. */
  void integer(const char *name, const char *meta, long long lo, long long hi,
               std::function<void(long long)> set);
  template <class T>
  void integer(const char *name, const char *meta, long long lo, long long hi, T *out) {
    integer(name, meta, lo, hi, [out](long long v) { *out = (T)v; });
  }
  void real(const char *name, const char *meta, std::function<void(double)> set);
  /* A comma-separated subset of `allowed`, replacing *out. */
  void list(const char *name, const std::vector<std::string> &allowed, std::set<std::string> *out);
  /* A comma-separated list of integers in [lo, hi], replacing *out, sorted
   * ascending without duplicates. */
  void integers(const char *name, const char *meta, long long lo, long long hi,
                std::vector<int> *out);
  /* One of `allowed`. */
  void choice(const char *name, const std::vector<std::string> &allowed, std::string *out);
  /* Not shown in the usage (internal modes). */
  void hidden(const char *name, std::function<void(const char *)> set);

  void parse(int argc, char **argv) const;
  [[noreturn]] void usage(void) const;

private:
  struct option {
    std::string name, meta; /* meta "": a flag */
    bool shown;
    std::function<bool(const char *)> set; /* false: bad value */
  };
  std::vector<option> opts_;
  std::string extra_;
};

#endif /* BENCH_COMMON_CLI_HPP */
