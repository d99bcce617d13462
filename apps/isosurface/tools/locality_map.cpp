/* locality_map (the binary of apps/isosurface/tools/locality_map.cpp): the reuse-distance model alone (locality.h,
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
#include "locality_tool.h"
#include "mesh.h"
#include "reorder.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace iso;

namespace {

[[noreturn]] void usage(const std::string &msg) { tool_usage("locality_map", msg); }

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

struct MapOptions {
  MeshArgs mesh;
  double iso = 0.6;
  bool iso_set = false, header = false;
  double rate = 0;
  size_t chunk = 0;
  std::vector<std::string> kernels = {"classified", "scalars"};
  std::vector<uint64_t> workers = {1, 2, 4, 8, 16};
  std::vector<uint64_t> caches = {(uint64_t)ISO_FALLBACK_SHARED_CACHE};
  std::vector<uint64_t> windows;
  std::vector<std::string> modes = {"seq", "nowin", "static", "sliding"};
};

/* The command line (see the top of this file), or the end of the tool. */
MapOptions parse_options(int argc, char **argv) {
  MapOptions o;
  parse_command_line("locality_map", argc, argv, &o.mesh, [&o](const std::string &a, auto value) {
    if (a == "--split") {
      if (parse_split(value(), &o.mesh.split)) usage("--split: 5 or 6");
    } else if (a == "--field") {
      if (parse_field(value(), &o.mesh.field)) usage("--field: sphere, waves, flat or gyroid");
    } else if (a == "--seed")
      o.mesh.seed = numbers(value(), "--seed")[0];
    else if (a == "--iso") {
      o.iso = std::atof(value().c_str());
      o.iso_set = true;
    } else if (a == "--kernels")
      o.kernels = split_list(value());
    else if (a == "--workers")
      o.workers = numbers(value(), "--workers");
    else if (a == "--cache-bytes")
      o.caches = numbers(value(), "--cache-bytes");
    else if (a == "--window")
      o.windows = numbers(value(), "--window");
    else if (a == "--modes")
      o.modes = split_list(value());
    else if (a == "--rate")
      o.rate = std::atof(value().c_str());
    else if (a == "--chunk")
      o.chunk = (size_t)numbers(value(), "--chunk")[0];
    else if (a == "--header")
      o.header = true;
    else
      return false;
    return true;
  });
  if (!o.iso_set && o.mesh.field != Field::Sphere) o.iso = 0;
  for (uint64_t c : o.caches)
    if (c < 64) usage("--cache-bytes: at least 64");
  for (uint64_t p : o.workers)
    if (p < 1) usage("--workers: at least 1");
  return o;
}

/* The runs of one kernel and cache: seq first (the reference), then each
 * worker count in each other mode, each windowed mode at each window. One
 * CSV line a run; false when the model fails. */
bool model_cache(const Mesh &mesh, const MapOptions &o, const std::string &kname, Kernel kernel,
                 uint64_t cache) {
  double seq_misses = 0;
  std::vector<uint64_t> ws = o.windows;
  if (ws.empty()) ws.push_back(default_window(mesh, cache));
  std::vector<std::pair<std::string, uint64_t>> runs; /* mode, workers */
  runs.push_back({"seq", 1});
  for (uint64_t p : o.workers)
    for (const std::string &mo : o.modes)
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
      s.iso = o.iso;
      s.chunk = o.chunk;
      MissPrediction p;
      const double t1 = seconds_now();
      if (const int rc = predict_misses(mesh, s, {cache}, o.rate, &p)) {
        std::fprintf(stderr, "locality_map: predict_misses: %s\n", std::strerror(-rc));
        return false;
      }
      const double dt = seconds_now() - t1;
      if (mode == Mode::Seq) seq_misses = p.misses[0];
      std::printf("%zu,%zu,%s,%s,%s,%d,%llu,%s,%zu,%.0f,%.0f,%.4f,%.4g,%.3f\n", mesh.tets.size(),
                  mesh.pts.size(), order_name(o.mesh.order), point_order_name(o.mesh.porder),
                  kname.c_str(), s.workers, (unsigned long long)cache, run.first.c_str(), s.window,
                  p.accesses, p.misses[0], seq_misses > 0 ? p.misses[0] / seq_misses : 0.0, p.rate,
                  dt);
      std::fflush(stdout);
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  const MapOptions o = parse_options(argc, argv);
  const double t0 = seconds_now();
  Mesh mesh;
  generate_mesh("locality_map", o.mesh, &mesh);
  std::fprintf(stderr, "locality_map: %zu cells, %zu points, mesh %.2f s\n", mesh.tets.size(),
               mesh.pts.size(), seconds_now() - t0);
  if (o.header)
    std::printf("cells,points,order,point_order,kernel,workers,cache_bytes,mode,window,accesses,"
                "misses,rel_seq,rate,seconds\n");
  for (const std::string &kname : o.kernels) {
    Kernel kernel;
    if (parse_kernel(kname, &kernel)) usage("--kernels: classified or scalars");
    for (uint64_t cache : o.caches)
      if (!model_cache(mesh, o, kname, kernel, cache)) return 1;
  }
  return 0;
}
