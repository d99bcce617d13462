/* apps/isosurface/locality_sim: the paper's kernel (`scalars` in the model:
 * each cell reads its tetrahedron and the scalars of its four points,
 * mt_cell), run for real in the four modes, so that the model's
 * `scalars` predictions can be checked with the simulator and the clock:
 * the extraction itself (mt.cpp) classifies the points first and no longer
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
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using namespace iso;

namespace {

[[noreturn]] void usage(const std::string &msg) {
  std::fprintf(stderr, "locality_sim: %s (see the comment at the top of locality_sim.cpp)\n",
               msg.c_str());
  std::exit(1);
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

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

} // namespace

int main(int argc, char **argv) {
  int64_t dims[3] = {0, 0, 0};
  Order order = Order::Lex;
  PointOrder porder = PointOrder::Keep;
  uint64_t seed = 1;
  double iso = 0.6;
  int workers = 2, reps = 1;
  size_t window = 0;
  std::vector<std::string> modes = {"seq", "nowin", "static", "sliding"};
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    auto need = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--generate") {
      if (std::sscanf(need().c_str(), "%ldx%ldx%ld", &dims[0], &dims[1], &dims[2]) != 3)
        usage("--generate: expected NXxNYxNZ");
    } else if (a == "--order") {
      if (parse_order(need(), &order)) usage("--order: lex, morton, hilbert or random");
    } else if (a == "--point-order") {
      if (parse_point_order(need(), &porder)) usage("--point-order: keep, first-use or random");
    } else if (a == "--seed")
      seed = std::strtoull(need().c_str(), nullptr, 10);
    else if (a == "--iso")
      iso = std::atof(need().c_str());
    else if (a == "--workers")
      workers = std::atoi(need().c_str());
    else if (a == "--window")
      window = std::strtoull(need().c_str(), nullptr, 10);
    else if (a == "--reps")
      reps = std::max(1, std::atoi(need().c_str()));
    else if (a == "--modes") {
      modes.clear();
      std::stringstream ss(need());
      for (std::string x; std::getline(ss, x, ',');) modes.push_back(x);
    } else
      usage("unknown option " + a);
  }
  if (dims[0] < 1 || dims[1] < 1 || dims[2] < 1) usage("--generate NXxNYxNZ is required");
  if (workers < 1) usage("--workers: at least 1");
  Grid g;
  for (int k = 0; k < 3; k++) g.np[k] = dims[k] + 1;
  g.field = Field::Sphere;
  Mesh mesh;
  std::string err;
  if (tetrahedralize_grid(g, Split::Five, order, seed, &mesh, &err)) usage(err);
  int rc = 0;
  if (porder == PointOrder::FirstUse)
    rc = renumber_points_first_use(&mesh, &err);
  else if (porder == PointOrder::Random)
    rc = shuffle_points(&mesh, seed, &err);
  if (rc) usage(err);

  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = workers;
  if ((rc = adapt_init(&cfg))) usage(std::string("adapt_init: ") + adapt_strerror(rc));
  size_t shared = ISO_FALLBACK_SHARED_CACHE;
  if (size_t c = adapt_shared_cache_size()) shared = c;
  AdaptOptions opt;
  opt.window_size = window ? window : default_window(mesh, shared);
  std::printf("locality_sim: %zu cells, %zu points, %d workers, window %zu cells, scalars kernel\n",
              mesh.tets.size(), mesh.pts.size(), adapt_num_workers(), opt.window_size);
  std::vector<Mode> ms;
  for (const std::string &s : modes) {
    Mode m;
    if (parse_mode(s, &m)) usage("--modes: seq, nowin, static or sliding");
    ms.push_back(m);
  }
  std::vector<std::vector<double>> times(ms.size());
  std::vector<TriRec> out;
  out.reserve(mesh.tets.size() / 4);
  for (int r = 0; r < reps; r++)
    for (size_t k = 0; k < ms.size(); k++) {
      std::vector<PositionEvent> ev;
      const double t0 = now();
      CALLGRIND_START_INSTRUMENTATION;
      if (ms[k] == Mode::Seq)
        run_seq(mesh, iso, &out);
      else
        rc = record_positions(mesh, iso, ms[k], opt, &ev, &err);
      CALLGRIND_STOP_INSTRUMENTATION;
      times[k].push_back(now() - t0);
      if (rc) usage(err);
    }
  for (size_t k = 0; k < ms.size(); k++) {
    std::vector<double> t = times[k];
    std::sort(t.begin(), t.end());
    std::printf("%-8s median %.2f ms  (min %.2f, max %.2f, %d reps)\n", mode_name(ms[k]),
                t[t.size() / 2] * 1e3, t.front() * 1e3, t.back() * 1e3, reps);
  }
  adapt_finalize();
  return 0;
}
