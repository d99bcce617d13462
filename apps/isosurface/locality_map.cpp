/* apps/isosurface/locality_map: the reuse-distance model alone (locality.h,
 * docs/locality.md), over a grid of configurations in one process: kernels
 * x workers x cache sizes x modes (x window sizes), on one generated mesh.
 * No runtime, no extraction, no VTK: the regime map and the window-size
 * sweep of make bench-locality, and the model's speed.
 *
 * usage: locality_map --generate NXxNYxNZ [--split 5|6] [--order O]
 *          [--point-order keep|first-use|random] [--seed N] [--field F] [--iso V]
 *          [--kernels classified,scalars] [--workers 1,2,4] [--cache-bytes B,B...]
 *          [--modes seq,nowin,static,sliding] [--window M,M...] [--rate R] [--header]
 *          [--chunk C]   (cells a modelled worker runs before the next one's
 *                         turn; default ISO_LOCALITY_CHUNK)
 * Writes CSV lines to stdout:
 *   cells,points,order,point_order,kernel,workers,cache_bytes,mode,window,
 *   accesses,misses,rel_seq,rate,seconds
 * window: the static/sliding window in cells; without --window, the app's
 * default for that cache (default_window: cache / cell_bytes / ISO_WINDOW_CACHE_DIVISOR,
 * rounded up to ISO_CELL_BLOCK). rel_seq: misses / seq's (same kernel and
 * cache; seq is always computed). */
#include "iso_config.h"
#include "locality.h"
#include "mesh.h"
#include "reorder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace iso;

namespace {

[[noreturn]] void usage(const std::string &msg) {
  std::fprintf(stderr, "locality_map: %s (see the comment at the top of locality_map.cpp)\n",
               msg.c_str());
  std::exit(1);
}

std::vector<std::string> split_list(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<uint64_t> numbers(const std::string &s, const char *what) {
  std::vector<uint64_t> out;
  for (const std::string &x : split_list(s)) {
    char *end = nullptr;
    const unsigned long long v = std::strtoull(x.c_str(), &end, 10);
    if (!end || *end) usage(std::string(what) + ": not a number: " + x);
    out.push_back(v);
  }
  if (out.empty()) usage(std::string(what) + ": empty list");
  return out;
}

double secs_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv) {
  int64_t dims[3] = {0, 0, 0};
  Split split = Split::Five;
  Order order = Order::Lex;
  PointOrder porder = PointOrder::Keep;
  Field field = Field::Sphere;
  uint64_t seed = 1;
  double iso = 0.6;
  bool iso_set = false, header = false;
  double rate = 0;
  size_t chunk = 0;
  std::vector<std::string> kernels = {"classified", "scalars"};
  std::vector<uint64_t> workers = {1, 2, 4, 8, 16};
  std::vector<uint64_t> caches = {(uint64_t)ISO_FALLBACK_SHARED_CACHE};
  std::vector<uint64_t> windows;
  std::vector<std::string> modes = {"seq", "nowin", "static", "sliding"};
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    auto need = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--generate") {
      const std::string v = need();
      if (std::sscanf(v.c_str(), "%ldx%ldx%ld", &dims[0], &dims[1], &dims[2]) != 3)
        usage("--generate: expected NXxNYxNZ");
    } else if (a == "--split") {
      if (parse_split(need(), &split)) usage("--split: 5 or 6");
    } else if (a == "--order") {
      if (parse_order(need(), &order)) usage("--order: lex, morton, hilbert or random");
    } else if (a == "--point-order") {
      if (parse_point_order(need(), &porder)) usage("--point-order: keep, first-use or random");
    } else if (a == "--field") {
      if (parse_field(need(), &field)) usage("--field: sphere, waves, flat or gyroid");
    } else if (a == "--seed")
      seed = numbers(need(), "--seed")[0];
    else if (a == "--iso") {
      iso = std::atof(need().c_str());
      iso_set = true;
    } else if (a == "--kernels")
      kernels = split_list(need());
    else if (a == "--workers")
      workers = numbers(need(), "--workers");
    else if (a == "--cache-bytes")
      caches = numbers(need(), "--cache-bytes");
    else if (a == "--window")
      windows = numbers(need(), "--window");
    else if (a == "--modes")
      modes = split_list(need());
    else if (a == "--rate")
      rate = std::atof(need().c_str());
    else if (a == "--chunk")
      chunk = (size_t)numbers(need(), "--chunk")[0];
    else if (a == "--header")
      header = true;
    else
      usage("unknown option " + a);
  }
  if (dims[0] < 1 || dims[1] < 1 || dims[2] < 1) usage("--generate NXxNYxNZ is required");
  if (!iso_set && field != Field::Sphere) iso = 0;
  for (uint64_t c : caches)
    if (c < 64) usage("--cache-bytes: at least 64");
  for (uint64_t p : workers)
    if (p < 1) usage("--workers: at least 1");

  const auto t0 = std::chrono::steady_clock::now();
  Grid g;
  for (int k = 0; k < 3; k++) g.np[k] = dims[k] + 1;
  g.field = field;
  Mesh mesh;
  std::string err;
  if (tetrahedralize_grid(g, split, order, seed, &mesh, &err)) usage(err);
  int rc = 0;
  if (porder == PointOrder::FirstUse)
    rc = renumber_points_first_use(&mesh, &err);
  else if (porder == PointOrder::Random)
    rc = shuffle_points(&mesh, seed, &err);
  if (rc) usage(err);
  std::fprintf(stderr, "locality_map: %zu cells, %zu points, mesh %.2f s\n", mesh.tets.size(),
               mesh.pts.size(), secs_since(t0));
  if (header)
    std::printf("cells,points,order,point_order,kernel,workers,cache_bytes,mode,window,accesses,"
                "misses,rel_seq,rate,seconds\n");
  for (const std::string &kname : kernels) {
    Kernel kernel;
    if (parse_kernel(kname, &kernel)) usage("--kernels: classified or scalars");
    for (uint64_t cache : caches) {
      double seq_misses = 0;
      std::vector<uint64_t> ws = windows;
      if (ws.empty()) ws.push_back(default_window(mesh, cache));
      /* seq first (the reference), once per kernel and cache. */
      std::vector<std::pair<std::string, uint64_t>> runs; /* mode, workers */
      runs.push_back({"seq", 1});
      for (uint64_t p : workers)
        for (const std::string &mo : modes)
          if (mo != "seq") runs.push_back({mo, p});
      for (const auto &run : runs) {
        Mode mode;
        if (parse_mode(run.first, &mode)) usage("--modes: seq, nowin, static or sliding");
        const bool windowed = mode == Mode::Static || mode == Mode::Sliding;
        for (uint64_t w : windowed ? ws : std::vector<uint64_t>{0}) {
          ScheduleModel s;
          s.mode = mode;
          s.workers = (int)run.second;
          s.window = windowed ? (w + ISO_CELL_BLOCK - 1) / ISO_CELL_BLOCK * ISO_CELL_BLOCK : 0;
          s.kernel = kernel;
          s.iso = iso;
          s.chunk = chunk;
          MissPrediction p;
          const auto t1 = std::chrono::steady_clock::now();
          if ((rc = predict_misses(mesh, s, {cache}, rate, &p))) {
            std::fprintf(stderr, "locality_map: predict_misses: %s\n", std::strerror(-rc));
            return 1;
          }
          const double dt = secs_since(t1);
          if (mode == Mode::Seq) seq_misses = p.misses[0];
          std::printf("%zu,%zu,%s,%s,%s,%d,%llu,%s,%zu,%.0f,%.0f,%.4f,%.4g,%.3f\n",
                      mesh.tets.size(), mesh.pts.size(), order_name(order),
                      point_order_name(porder), kname.c_str(), s.workers, (unsigned long long)cache,
                      run.first.c_str(), s.window, p.accesses, p.misses[0],
                      seq_misses > 0 ? p.misses[0] / seq_misses : 0.0, p.rate, dt);
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
