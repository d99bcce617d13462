/* apps/isosurface/cli: rank 0's report of the distributed run (see
 * dist_internal.h). */
#include "cli_options.h"
#include "dist_internal.h"
#include "pieces.h"
#include "reorder.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace iso {
namespace dist {

std::string written_pieces(const std::string &path, const std::vector<RankFigures> &all) {
  std::string s;
  for (size_t r = 0; r < all.size(); r++) {
    if (all[r].tris == 0) continue;
    size_t e = r;
    while (e + 1 < all.size() && all[e + 1].tris > 0) e++;
    s += (s.empty() ? "" : ", ") + pvtp_piece_path(path, (int)r);
    if (e > r) s += (e == r + 1 ? ", " : " to ") + pvtp_piece_path(path, (int)e);
    r = e;
  }
  return s;
}

namespace {

/* One line per rank: its pieces, sizes, phase times and memory. */
void rank_table(const std::vector<RankFigures> &all) {
  std::printf("%4s %9s %10s %10s %10s %8s %3s %9s %9s %9s %9s %9s %9s %9s %8s %8s %6s\n", "rank",
              "pieces", "cells", "triangles", "vertices", "cpus", "W", "read ms", "reorder",
              "extract", "cells ms", "merge ms", "gmerge ms", "write ms", "RSS MiB", "data MiB",
              "ratio");
  for (size_t r = 0; r < all.size(); r++) {
    const RankFigures &f = all[r];
    char pieces[32];
    std::snprintf(pieces, sizeof pieces, "%lld-%lld", (long long)f.first_piece,
                  (long long)f.last_piece - 1);
    const double growth = f.rss_peak - f.rss_base;
    std::printf("%4zu %9s %10lld %10lld %10lld %8s %3d %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f "
                "%8.1f %8.1f %6.2f\n",
                r, f.last_piece > f.first_piece ? pieces : "none", (long long)f.cells,
                (long long)f.tris, (long long)f.verts, f.cpus, f.workers, 1e3 * f.t_read,
                1e3 * f.t_reorder, 1e3 * f.t_extract, 1e3 * f.t_cells, 1e3 * f.t_merge,
                1e3 * f.t_gmerge, 1e3 * f.t_write, f.rss_peak / (1 << 20), f.data_bytes / (1 << 20),
                f.data_bytes > 0 ? growth / f.data_bytes : 0.0);
  }
}

/* One line per phase: min, mean and max over the ranks, the imbalance, the
 * largest CPU time. */
void phase_table(const std::vector<RankFigures> &all) {
  const struct {
    const char *name;
    double RankFigures::*t;
    double RankFigures::*c;
  } phases[] = {{"read", &RankFigures::t_read, &RankFigures::c_read},
                {"reorder", &RankFigures::t_reorder, &RankFigures::c_reorder},
                {"extract", &RankFigures::t_extract, &RankFigures::c_extract},
                {"  cells", &RankFigures::t_cells, nullptr},
                {"  merge", &RankFigures::t_merge, nullptr},
                {"global merge", &RankFigures::t_gmerge, &RankFigures::c_gmerge},
                {"write", &RankFigures::t_write, &RankFigures::c_write},
                {"total", &RankFigures::t_total, nullptr}};
  std::printf("\n%-13s %10s %10s %10s %10s %11s\n", "phase", "min ms", "mean ms", "max ms",
              "imbalance", "max cpu ms");
  for (const auto &ph : phases) {
    double mn = INFINITY, mx = 0, sum = 0;
    for (const RankFigures &f : all) {
      mn = std::min(mn, f.*ph.t);
      mx = std::max(mx, f.*ph.t);
      sum += f.*ph.t;
    }
    const double mean = sum / (double)all.size();
    char imb[32] = "-";
    if (mean > 0) std::snprintf(imb, sizeof imb, "%.2f", mx / mean);
    char cpu[32] = "-";
    if (ph.c) {
      double cmax = 0;
      for (const RankFigures &f : all) cmax = std::max(cmax, f.*ph.c);
      std::snprintf(cpu, sizeof cpu, "%.1f", 1e3 * cmax);
    }
    std::printf("%-13s %10.1f %10.1f %10.1f %10s %11s\n", ph.name, 1e3 * mn, 1e3 * mean, 1e3 * mx,
                imb, cpu);
  }
  std::printf("(imbalance: max / mean over the ranks; the job takes the max. cpu: CPU time, the "
              "main thread's, the process's for reorder and extract)\n");
}

/* The job's totals: surface, vertex numbering, reorder, memory, output. */
void totals(const World &w, const DistOptions &o, const std::vector<RankFigures> &all,
            uint64_t gverts) {
  long long tris = 0, verts = 0;
  double area = 0, worst = 0, peak = 0;
  size_t worst_rank = 0;
  for (size_t r = 0; r < all.size(); r++) {
    const RankFigures &f = all[r];
    tris += f.tris;
    verts += f.verts;
    area += f.area;
    peak = std::max(peak, f.rss_peak);
    if (f.data_bytes > 0 && (f.rss_peak - f.rss_base) / f.data_bytes > worst) {
      worst = (f.rss_peak - f.rss_base) / f.data_bytes;
      worst_rank = r;
    }
  }
  int with_gids = 0, reordered = 0;
  for (const RankFigures &f : all) {
    with_gids += f.global_ids;
    reordered += std::strcmp(f.reorder, "none") != 0;
  }
  std::printf("\nglobal: %lld triangles, %llu vertices (%lld over the ranks, %lld shared by pieces "
              "counted once, numbered by %s), area %.10g\n",
              tris, (unsigned long long)gverts, verts, verts - (long long)gverts,
              with_gids == w.size ? "the global ids of their edges' ends" : "their coordinates",
              area);
  std::printf("reorder: %s on %d of %d rank(s)\n", reorder_name(o.reorder), reordered, w.size);
  std::printf("memory: max RSS per rank %.1f MiB; peak RSS growth / (mesh share + output) at most "
              "%.2f (rank %zu; target 1.3; growth: peak RSS - RSS before reading; mesh share + "
              "output: 32 B a point (40 with its global id), 16 B a tetrahedron, 24 B a vertex "
              "(32 with its global id) and a triangle)\n",
              peak / (1 << 20), worst, worst_rank);
  if (!o.output.empty())
    std::printf("surface written to %s (%zu piece(s): %s)\n", o.output.c_str(),
                (size_t)std::count_if(all.begin(), all.end(),
                                      [](const RankFigures &f) { return f.tris > 0; }),
                written_pieces(o.output, all).c_str());
}

} // namespace

void report(const World &w, const DistOptions &o, size_t npieces,
            const std::vector<RankFigures> &all, uint64_t gverts, const std::string &notes) {
  std::printf("\ndistributed isosurface at iso=%s: %d rank(s), %zu piece(s) of %s, mode %s, "
              "median of %d run(s)\n",
              cli::number_text(o.iso).c_str(), w.size, npieces, o.input.c_str(), mode_name(o.mode),
              o.reps);
  if (!notes.empty()) std::printf("%s", notes.c_str());
  rank_table(all);
  phase_table(all);
  totals(w, o, all, gverts);
}

void write_csv(const DistOptions &o, const std::vector<RankFigures> &all) {
  FILE *f = std::fopen(o.csv.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "adapt-isosurface: cannot write '%s': %s\n", o.csv.c_str(),
                 std::strerror(errno));
    return;
  }
  std::fprintf(f,
               "rank,first_piece,last_piece,cells,points,triangles,vertices,area,workers,cpus,"
               "reorder,read_s,reorder_s,extract_s,cells_s,merge_s,global_merge_s,write_s,total_s,"
               "rss_base_b,"
               "rss_peak_b,data_b,peak_after_read_b,peak_after_extract_b,read_cpu_s,extract_cpu_s,"
               "global_merge_cpu_s,write_cpu_s,reorder_cpu_s\n");
  for (size_t r = 0; r < all.size(); r++) {
    const RankFigures &x = all[r];
    std::fprintf(f,
                 "%zu,%lld,%lld,%lld,%lld,%lld,%lld,%.10g,%d,\"%s\",%s,%.9g,%.9g,%.9g,%.9g,%.9g,"
                 "%.9g,%.9g,%.9g,%.0f,%.0f,%.0f,%.0f,%.0f,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                 r, (long long)x.first_piece, (long long)x.last_piece, (long long)x.cells,
                 (long long)x.points, (long long)x.tris, (long long)x.verts, x.area, x.workers,
                 x.cpus, x.reorder, x.t_read, x.t_reorder, x.t_extract, x.t_cells, x.t_merge,
                 x.t_gmerge, x.t_write, x.t_total, x.rss_base, x.rss_peak, x.data_bytes,
                 x.peak_read, x.peak_extract, x.c_read, x.c_extract, x.c_gmerge, x.c_write,
                 x.c_reorder);
  }
  std::fclose(f);
}

} // namespace dist
} // namespace iso
