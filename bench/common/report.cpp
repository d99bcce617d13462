/* Targets, tallies and the shared report helpers (report.hpp). */
#include "report.hpp"

#include "harness.hpp"
#include "output.hpp"

#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <cmath>

bool target_passes(const target &t) {
  if (std::isnan(t.value)) return false;
  return t.at_least ? t.value >= t.bound : t.value <= t.bound;
}

void tally_targets(std::vector<target_tally> *ts, const std::string &label,
                   const std::vector<target> &targets) {
  for (const target &t : targets) {
    auto it = std::find_if(ts->begin(), ts->end(),
                           [&](const target_tally &x) { return strcmp(x.name, t.name) == 0; });
    if (it == ts->end()) {
      ts->push_back(target_tally());
      ts->back().name = t.name;
      it = ts->end() - 1;
    }
    if (target_passes(t)) {
      it->pass++;
      continue;
    }
    it->miss++;
    it->no_room += t.no_room;
    it->within_noise += t.within_noise && !t.no_room;
    it->misses += fmt("%s%s (%s%s)", it->misses.empty() ? "" : "; ", label.c_str(),
                      num(t.value, "%.3f").c_str(),
                      t.no_room        ? ", no room"
                      : t.within_noise ? ", within noise"
                                       : "");
  }
}

std::string report_tallies(const std::vector<target_tally> &ts, const std::string &title,
                           const char *label_what, const char *no_room_why, const char *noise_why) {
  std::string md = "\n## Targets, " + title + "\n\n| target | PASS | MISS | misses (" + label_what +
                   ": figure) |\n|---|---:|---:|---|\n";
  for (const target_tally &t : ts) {
    std::string why;
    if (t.no_room) why = std::to_string(t.no_room) + " with no room: " + no_room_why;
    if (t.within_noise)
      why += (why.empty() ? "" : "; ") + std::to_string(t.within_noise) +
             " within noise: " + noise_why;
    const std::string room = why.empty() ? why : " (" + why + ")";
    printf("   %-28s PASS %3d  MISS %3d%s%s%s\n", t.name, t.pass, t.miss, room.c_str(),
           t.miss ? "  misses: " : "", t.misses.c_str());
    /* not fmt(): the list of misses may exceed its 1023 characters */
    md += std::string("| ") + t.name + " | " + std::to_string(t.pass) + " | " +
          std::to_string(t.miss) + room + " | " + t.misses + " |\n";
  }
  return md;
}

std::string size_label(size_t n) {
  if (n >= 1000000 && n % 1000000 == 0) {
    size_t m = n / 1000000;
    return m == 1 ? "1e6" : m == 10 ? "1e7" : m == 100 ? "1e8" : fmt("%zue6", m);
  }
  return fmt("%zu", n);
}

quartiles quartiles_of(const std::vector<double> &v) {
  quartiles q;
  q.p25 = quantile(v, 0.25);
  q.median = median(v);
  q.p75 = quantile(v, 0.75);
  return q;
}

interval median_interval(std::vector<double> v) {
  interval r;
  const size_t n = v.size();
  std::sort(v.begin(), v.end());
  /* P(B <= j) for B ~ Binomial(n, 1/2), summed term by term in doubles:
   * C(n, j) / 2^n from C(n, 0) / 2^n = 2^-n (n stays far below 1074). */
  double term = std::ldexp(1.0, -(int)n), below = 0;
  size_t k = 0;
  for (size_t j = 0; j < n; j++) {
    below += term; /* P(B <= j) */
    if (below > 0.025) break;
    k = j + 1;
    term = term * (double)(n - j) / (double)(j + 1);
  }
  if (k == 0) return r;
  r.lo = v[k - 1];
  r.hi = v[n - k];
  return r;
}

void write_text_file(const std::string &path, const std::string &text) {
  FILE *f = fopen(path.c_str(), "w");
  if (!f) fatal("cannot write %s", path.c_str());
  fputs(text.c_str(), f);
  fclose(f);
}
