/* apps/isosurface/cli: adapt-isosurface's table, its CSV and --verify (see
 * cli_run.h). */
#include "cli_run.h"
#include "pieces.h"
#include "reorder.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace iso {
namespace cli {

namespace {

std::string short_event(const std::string &e) {
  if (e == "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL" || e == "PAPI_L3_TCM" ||
      e == "PAPI_L3_DCM")
    return "LLC";
  if (e == "PAPI_L2_DCM" || e == "PAPI_L2_TCM") return "L2";
  if (e == "PAPI_TOT_CYC") return "cyc";
  if (e.rfind("PAPI_", 0) == 0) return e.substr(5);
  return e.substr(0, 12);
}

/* ---- Phase: the table and the CSV ------------------------------------- */

/* The fastest run of a row, beside the medians: on a VM whose vCPUs slow
 * down in phases the guest cannot see (docs/benchmarks.md, "Machine") the
 * two read differently. NaN without runs. */
double fastest(const std::vector<double> &secs) {
  return secs.empty() ? NAN : *std::min_element(secs.begin(), secs.end());
}

void print_row(const Run &r, const Row &row, const Row *seq, double tseq) {
  const double t = median(row.secs);
  std::printf("%-27s %9.1f", row.name.c_str(), 1e3 * t);
  if (row.ours && std::isfinite(median(row.cells)))
    std::printf(" %9.1f %9.1f", 1e3 * median(row.cells), 1e3 * median(row.merges));
  else
    std::printf(" %9s %9s", "-", "-");
  /* Relative to the seq row: "-" without one (or without a value). */
  auto relative = [](double v, double base, int width) {
    if (std::isfinite(v / base))
      std::printf(" %*.2f", width, v / base);
    else
      std::printf(" %*s", width, "-");
  };
  relative(tseq, t, 8);
  std::printf(" %8.1f", 1e3 * fastest(row.secs));
  relative(seq ? fastest(seq->secs) : NAN, fastest(row.secs), 7);
  for (int e = 0; e < r.nev; e++)
    relative(median(row.counts[(size_t)e]), seq ? median(seq->counts[(size_t)e]) : NAN, 9);
  if (r.o.predict_misses) {
    if (std::isfinite(row.predicted))
      std::printf(" %11.0f", row.predicted);
    else
      std::printf(" %11s", "-");
    relative(row.predicted, seq ? seq->predicted : NAN, 8);
  }
  if (row.ours && row.mode != Mode::Seq)
    std::printf(" %8.0f", median(row.steals));
  else
    std::printf(" %8s", "-");
  if (row.window)
    std::printf(" %9zu", row.window);
  else
    std::printf(" %9s", "-");
  std::printf(" %9zu %9zu%s%s\n", row.ntris, row.nverts, row.note.empty() ? "" : "  ",
              row.note.c_str());
}

FILE *open_csv(const Run &r) {
  FILE *csv = std::fopen(r.o.csv.c_str(), "w");
  if (!csv) die(EXIT_RUN, "cannot write '" + r.o.csv + "': " + std::strerror(errno));
  std::fprintf(
      csv, "name,kind,workers,tets,time_s,cells_s,merge_s,speedup,steals,window,triangles,vertices,"
           "cell_spread,pair_spread,reorder,reorder_s");
  for (int e = 0; e < r.nev; e++) std::fprintf(csv, ",%s,%s_rel", r.pc.names[e], r.pc.names[e]);
  std::fprintf(csv, ",predicted_ll_misses,predicted_ll_rel,best_s,best_speedup,isovalues,"
                    "iso_triangles\n");
  return csv;
}

/* A CSV number, or an empty field when undefined (no seq row, a VTK row's
 * phases). */
std::string csv_num(double v, const char *fmt) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

void csv_row(FILE *csv, const Run &r, const Row &row, const Row *seq, double tseq) {
  const double t = median(row.secs);
  std::fprintf(csv, "%s,%s,%d,%zu,%s,%s,%s,%s,%.0f,%zu,%zu,%zu", row.name.c_str(),
               row.ours ? "libadapt" : "vtk", r.workers, r.mesh.tets.size(),
               csv_num(t, "%.9g").c_str(),
               csv_num(row.ours ? median(row.cells) : NAN, "%.9g").c_str(),
               csv_num(row.ours ? median(row.merges) : NAN, "%.9g").c_str(),
               csv_num(tseq / t, "%.6g").c_str(),
               row.ours && row.mode != Mode::Seq ? median(row.steals) : 0.0, row.window, row.ntris,
               row.nverts);
  std::fprintf(csv, ",%.6g,%.6g,%s,%.9g", r.extracted.cell_spread, r.extracted.pair_spread,
               reorder_name(r.reordered), r.reorder_secs);
  for (int e = 0; e < r.nev; e++) {
    const double v = median(row.counts[(size_t)e]);
    std::fprintf(csv, ",%s,%s", csv_num(v, "%.0f").c_str(),
                 csv_num(seq ? v / median(seq->counts[(size_t)e]) : NAN, "%.6g").c_str());
  }
  std::fprintf(csv, ",%s,%s", csv_num(row.predicted, "%.0f").c_str(),
               csv_num(seq ? row.predicted / seq->predicted : NAN, "%.6g").c_str());
  std::fprintf(csv, ",%s,%s", csv_num(fastest(row.secs), "%.9g").c_str(),
               csv_num(seq ? fastest(seq->secs) / fastest(row.secs) : NAN, "%.6g").c_str());
  /* Several values: each one's triangles, ';'-separated (ours; the peers
   * give the total only). */
  std::string values = iso_text(r.o), counts;
  std::replace(values.begin(), values.end(), ',', ';');
  for (size_t k = 0; k < row.value_tris.size(); k++)
    counts += (k ? ";" : "") + std::to_string(row.value_tris[k]);
  if (r.o.isos.size() == 1) counts = std::to_string(row.ntris);
  std::fprintf(csv, ",%s,%s\n", values.c_str(), counts.c_str());
}

/* Several values: each one's triangles (the first of our rows run). */
void print_values(const Run &r) {
  for (const Row &row : r.rows) {
    if (!row.ours || row.skipped || row.value_tris.empty()) continue;
    std::printf("isovalues (%s):", row.name.c_str());
    for (size_t k = 0; k < row.value_tris.size() && k < r.o.isos.size(); k++)
      std::printf("%s %s: %zu triangles", k ? "," : "", number_text(r.o.isos[k]).c_str(),
                  row.value_tris[k]);
    std::printf("\n");
    return;
  }
}

} // namespace

void print_table(const Run &r) {
  const Row *seq = nullptr;
  for (const Row &row : r.rows)
    if (row.ours && row.mode == Mode::Seq && !row.skipped) seq = &row;
  const double tseq = seq ? median(seq->secs) : NAN;
  std::printf("\nisosurface at iso=%s, %d worker(s), %zu tetrahedra, median of %d run(s); best: "
              "the fastest run\n",
              iso_text(r.o).c_str(), r.workers, r.mesh.tets.size(), r.o.reps);
  std::printf("%-27s %9s %9s %9s %8s %8s %7s", "mode", "time ms", "cells ms", "merge ms", "speedup",
              "best ms", "best x");
  for (int e = 0; e < r.nev; e++)
    std::printf(" %9s", (short_event(r.pc.names[e]) + "/seq").c_str());
  if (r.o.predict_misses) std::printf(" %11s %8s", "predLL", "pLL/seq");
  std::printf(" %8s %9s %9s %9s\n", "steals", "window", "triangles", "vertices");
  FILE *csv = r.o.csv.empty() ? nullptr : open_csv(r);
  for (const Row &row : r.rows) {
    if (row.skipped) {
      std::printf("%-27s skipped: %s\n", row.name.c_str(), row.note.c_str());
      continue;
    }
    print_row(r, row, seq, tseq);
    if (csv) csv_row(csv, r, row, seq, tseq);
  }
  if (csv) std::fclose(csv);
  print_values(r);
  const double mesh_mib = (double)mesh_bytes(r.mesh) / (1 << 20);
  for (const Row &row : r.rows)
    if (row.ours && !row.skipped && std::isfinite(row.rss_extra_mib))
      std::printf("memory: %-8s peak RSS during its first extraction %.1f MiB above the RSS "
                  "before it (mesh %.1f MiB, output %.1f MiB: mesh + peak = %.3f x mesh + "
                  "output)\n",
                  row.name.c_str(), row.rss_extra_mib, mesh_mib, row.out_mib,
                  (mesh_mib + row.rss_extra_mib) / (mesh_mib + row.out_mib));
  if (r.o.reps > 1) {
    std::string first, kept;
    for (const Row &row : r.rows)
      if (row.ours && !row.skipped && std::isfinite(row.first_secs)) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s%s %.1f ms", first.empty() ? "" : ", ", row.name.c_str(),
                      1e3 * row.first_secs);
        first += buf;
        if (std::isfinite(row.kept_mib)) {
          std::snprintf(buf, sizeof buf, "%s%s %.1f MiB", kept.empty() ? "" : ", ",
                        row.name.c_str(), row.kept_mib);
          kept += buf;
        }
      }
    if (!kept.empty()) kept = " (kept after the last run: " + kept + ")";
    if (!first.empty())
      std::printf("first run (fresh output memory): %s; %s%s\n", first.c_str(),
                  r.o.fresh_output ? "every run into fresh memory (--fresh-output)"
                                   : "the later runs reuse the previous surface's memory and the "
                                     "transient memory it keeps",
                  kept.c_str());
  }
  if (!r.pc.available)
    std::printf("(no cache counters: %s)\n", r.perf_rc == -ECANCELED ? "disabled"
                                             : r.o.quiet             ? "PAPI unavailable"
                                                         : "PAPI unavailable, see the warning");
}

/* ---- Phase: verify ---------------------------------------------------- */

/* Every mode of ours against the reference byte for byte, the peers by
 * their triangle and vertex counts and area (vtkContourGrid's decides). */
void verify(Run &r) {
  const Surface *ref = reference(r);
  if (!r.o.verify || !ref) return;
  bool ok = true;
  for (size_t i = 0; i < r.rows.size(); i++) {
    const Row &row = r.rows[i];
    if (!row.ours || row.skipped || &r.surfaces[i] == ref) continue;
    const bool same = r.surfaces[i] == *ref;
    std::printf("verify: %-8s == %s byte for byte: %s\n", row.name.c_str(), r.rows[0].name.c_str(),
                same ? "ok" : "FAILED");
    ok &= same;
  }
  for (const Row &row : r.rows) {
    if (!row.ours || row.skipped || row.reuse_checked == 0) continue;
    std::printf("verify: %-8s %d run(s) into the previous surface's memory == its first: %s\n",
                row.name.c_str(), row.reuse_checked, row.reuse_failed ? "FAILED" : "ok");
    ok &= !row.reuse_failed;
  }
  for (const Row &row : r.rows) {
    if (row.ours || row.skipped) continue;
    const double rel = std::fabs(row.area - ref->area()) / std::max(1e-300, std::fabs(row.area));
    const bool match = row.ntris == ref->ntris() && row.nverts == ref->nverts() &&
                       (rel <= ISO_AREA_RTOL || (row.area == 0 && ref->area() == 0));
    std::printf(
        "verify: %-27s triangles %zu vs %zu, vertices %zu vs %zu, area rel. diff %.2e: %s\n",
        row.name.c_str(), ref->ntris(), row.ntris, ref->nverts(), row.nverts, rel,
        match ? "ok" : (row.peer == Peer::ContourGrid ? "FAILED" : "differs (not the reference)"));
    if (row.peer == Peer::ContourGrid) ok &= match;
    if (row.peer == Peer::ContourGrid && !r.o.verify_union.empty())
      ok &= verify_union(r.o.verify_union, {row.ntris, row.nverts, row.area}, ISO_AREA_RTOL);
  }
  if (!ok && r.exit_code == EXIT_OK) r.exit_code = EXIT_VERIFY;
}

} // namespace cli
} // namespace iso
