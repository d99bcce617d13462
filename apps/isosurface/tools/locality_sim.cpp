/* locality_sim (the binary of apps/isosurface/tools/locality_sim.cpp): the paper's kernel (`scalars` in the model:
 * each cell reads its tetrahedron and the scalars of its four points,
 * mt_cell), run for real in the four modes, so that the model's
 * `scalars` predictions can be checked with the simulator and the clock:
 * the extraction itself (cell_phase.cpp) classifies the points first and no longer
 * runs this kernel. The adaptive modes go through record_positions
 * (locality.h: the extraction's adapt_transform_var call, blocks of
 * ISO_CELL_BLOCK cells, the same window and splitter); seq is a plain loop
 * over the same blocks. Outputs (the triangles' edge keys) are collected and
 * dropped; no vertex merge.
 *
 * usage: locality_sim --generate NXxNYxNZ [--order O] [--point-order P] [--seed N]
 *          [--iso V] [--workers P] [--window M] [--modes seq,nowin,static,sliding]
 *          [--reps N]
 * Prints per mode the median time of the cell phase over --reps runs (modes
 * alternate within each repetition). Under valgrind (cachesim-style:
 * --instr-atstart=no) only the kernel runs are instrumented. */
#include "iso_config.h"
#include "locality.h"
#include "locality_tool.h"
#include "mesh.h"
#include "mt.h"
#include "reorder.h"

#include <adapt/adapt.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else /* no valgrind headers: runs, timed, without simulator markers */
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace iso;

namespace {

[[noreturn]] void usage(const std::string &msg) { tool_usage("locality_sim", msg); }

/* seq: the same blocks, one thread, triangles appended. */
size_t run_seq(const Mesh &m, double iso, std::vector<TriRec> *out) {
  out->clear();
  TriRec buf[2 * ISO_CELL_BLOCK];
  for (size_t b = 0; b < m.tets.size(); b += ISO_CELL_BLOCK) {
    const size_t n = std::min<size_t>(ISO_CELL_BLOCK, m.tets.size() - b);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      k += mt_cell(m.pts.data(), m.scalars.data(), m.tets[b + i], iso, buf + k);
    out->insert(out->end(), buf, buf + k);
  }
  return out->size();
}

struct SimOptions {
  MeshArgs mesh;
  double iso = 0.6;
  int workers = 2, reps = 1;
  size_t window = 0;
  std::vector<std::string> modes = {"seq", "nowin", "static", "sliding"};
};

/* The command line (see the top of this file), or the end of the tool. */
SimOptions parse_options(int argc, char **argv) {
  SimOptions o;
  parse_command_line("locality_sim", argc, argv, &o.mesh, [&o](const std::string &a, auto value) {
    if (a == "--seed")
      o.mesh.seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--iso")
      o.iso = std::atof(value().c_str());
    else if (a == "--workers")
      o.workers = std::atoi(value().c_str());
    else if (a == "--window")
      o.window = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--reps")
      o.reps = std::max(1, std::atoi(value().c_str()));
    else if (a == "--modes")
      o.modes = split_list(value(), true);
    else
      return false;
    return true;
  });
  if (o.workers < 1) usage("--workers: at least 1");
  return o;
}

/* The modes named in names (or the end of the tool). */
std::vector<Mode> parse_modes(const std::vector<std::string> &names) {
  std::vector<Mode> ms;
  for (const std::string &s : names) {
    Mode m;
    if (parse_mode(s, &m)) usage("--modes: seq, nowin, static or sliding");
    ms.push_back(m);
  }
  return ms;
}

/* The cell phase of each mode, reps times, the modes alternating within
 * each repetition: times[k], seconds, of mode ms[k]. Only the runs are
 * instrumented under valgrind. */
std::vector<std::vector<double>> time_modes(const Mesh &mesh, double iso, const AdaptOptions &opt,
                                            const std::vector<Mode> &ms, int reps) {
  std::vector<std::vector<double>> times(ms.size());
  std::vector<TriRec> out;
  out.reserve(mesh.tets.size() / 4);
  std::string err;
  for (int r = 0; r < reps; r++)
    for (size_t k = 0; k < ms.size(); k++) {
      std::vector<PositionEvent> ev;
      int rc = 0;
      const double t0 = seconds_now();
      CALLGRIND_START_INSTRUMENTATION;
      if (ms[k] == Mode::Seq)
        run_seq(mesh, iso, &out);
      else
        rc = record_positions(mesh, iso, ms[k], opt, &ev, &err);
      CALLGRIND_STOP_INSTRUMENTATION;
      times[k].push_back(seconds_now() - t0);
      if (rc) usage(err);
    }
  return times;
}

} // namespace

int main(int argc, char **argv) {
  const SimOptions o = parse_options(argc, argv);
  Mesh mesh;
  generate_mesh("locality_sim", o.mesh, &mesh);
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = o.workers;
  if (const int rc = adapt_init(&cfg)) usage(std::string("adapt_init: ") + adapt_strerror(rc));
  size_t shared = ISO_FALLBACK_SHARED_CACHE;
  if (size_t c = adapt_shared_cache_size()) shared = c;
  AdaptOptions opt;
  opt.window_size = o.window ? o.window : default_window(mesh, shared);
  std::printf("locality_sim: %zu cells, %zu points, %d workers, window %zu cells, scalars kernel\n",
              mesh.tets.size(), mesh.pts.size(), adapt_num_workers(), opt.window_size);
  const std::vector<Mode> ms = parse_modes(o.modes);
  std::vector<std::vector<double>> times = time_modes(mesh, o.iso, opt, ms, o.reps);
  for (size_t k = 0; k < ms.size(); k++) {
    std::vector<double> &t = times[k];
    std::sort(t.begin(), t.end());
    std::printf("%-8s median %.2f ms  (min %.2f, max %.2f, %d reps)\n", mode_name(ms[k]),
                t[t.size() / 2] * 1e3, t.front() * 1e3, t.back() * 1e3, o.reps);
  }
  adapt_finalize();
  return 0;
}
