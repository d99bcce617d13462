/* Command-line options of the benchmarks (cli.hpp). */
#include "cli.hpp"
#include "harness.hpp"

#include <stdio.h>
#include <stdlib.h>

#include <algorithm>

static std::string joined(const std::vector<std::string> &v, const char *sep) {
  std::string s;
  for (const std::string &x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

void cli::flag(const char *name, std::function<void()> on) {
  opts_.push_back({name, "", true, [on](const char *) {
                     on();
                     return true;
                   }});
}

void cli::text(const char *name, const char *meta, std::string *out) {
  opts_.push_back({name, meta, true, [out](const char *v) {
                     *out = v;
                     return true;
                   }});
}

void cli::integer(const char *name, const char *meta, long long lo, long long hi,
                  std::function<void(long long)> set) {
  opts_.push_back({name, meta, true, [=](const char *v) {
                     char *end = NULL;
                     long long x = strtoll(v, &end, 10);
                     if (!end || *end || end == v || x < lo || x > hi) return false;
                     set(x);
                     return true;
                   }});
}

void cli::real(const char *name, const char *meta, std::function<void(double)> set) {
  opts_.push_back({name, meta, true, [set](const char *v) {
                     char *end = NULL;
                     double x = strtod(v, &end);
                     if (!end || *end || end == v) return false;
                     set(x);
                     return true;
                   }});
}

void cli::list(const char *name, const std::vector<std::string> &allowed,
               std::set<std::string> *out) {
  opts_.push_back({name, joined(allowed, ","), true, [=](const char *v) {
                     std::string l = v;
                     out->clear();
                     for (size_t p = 0; p <= l.size();) {
                       size_t q = std::min(l.find(',', p), l.size());
                       std::string s = l.substr(p, q - p);
                       bool known = false;
                       for (const std::string &a : allowed) known = known || a == s;
                       if (!known) return false;
                       out->insert(s);
                       p = q + 1;
                     }
                     return true;
                   }});
}

void cli::integers(const char *name, const char *meta, long long lo, long long hi,
                   std::vector<int> *out) {
  opts_.push_back({name, meta, true, [=](const char *v) {
                     std::string l = v;
                     std::vector<int> got;
                     for (size_t p = 0; p <= l.size();) {
                       size_t q = std::min(l.find(',', p), l.size());
                       std::string s = l.substr(p, q - p);
                       char *end = NULL;
                       long long x = strtoll(s.c_str(), &end, 10);
                       if (!end || *end || s.empty() || x < lo || x > hi) return false;
                       if (std::find(got.begin(), got.end(), (int)x) == got.end())
                         got.push_back((int)x);
                       p = q + 1;
                     }
                     std::sort(got.begin(), got.end());
                     *out = got;
                     return true;
                   }});
}

void cli::choice(const char *name, const std::vector<std::string> &allowed, std::string *out) {
  opts_.push_back({name, joined(allowed, "|"), true, [=](const char *v) {
                     for (const std::string &a : allowed)
                       if (a == v) {
                         *out = v;
                         return true;
                       }
                     return false;
                   }});
}

void cli::hidden(const char *name, std::function<void(const char *)> set) {
  opts_.push_back({name, "X", false, [set](const char *v) {
                     set(v);
                     return true;
                   }});
}

void cli::parse(int argc, char **argv) const {
  for (int i = 1; i < argc; i++) {
    const option *o = NULL;
    for (const option &x : opts_)
      if (x.name == argv[i]) o = &x;
    if (!o) usage();
    if (o->meta.empty()) {
      o->set(NULL);
      continue;
    }
    if (i + 1 >= argc || !o->set(argv[++i])) usage();
  }
}

void cli::usage(void) const {
  std::string head = std::string("usage: ") + bench_prog, line = head;
  std::string indent(head.size(), ' ');
  for (const option &o : opts_) {
    if (!o.shown) continue;
    std::string item = " [" + o.name + (o.meta.empty() ? "" : " " + o.meta) + "]";
    if (line.size() + item.size() > 99) {
      fprintf(stderr, "%s\n", line.c_str());
      line = indent;
    }
    line += item;
  }
  fprintf(stderr, "%s\n%s", line.c_str(), extra_.c_str());
  exit(2);
}
