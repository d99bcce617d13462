/* apps/isosurface/cli: the phases of adapt-isosurface's serial run up to the
 * table (see cli_run.h). */
#include "cli_run.h"
#include "locality.h"
#include "mesh.h"
#include "mt.h"
#include "names.h"
#include "pieces.h"
#include "reorder.h"

#include <adapt/adapt.h>
#include <adapt/algorithms.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h> /* cachesim.sh: simulate the caches during extraction only */
#define ISO_SIM_START() CALLGRIND_START_INSTRUMENTATION
#define ISO_SIM_STOP() CALLGRIND_STOP_INSTRUMENTATION
#else
#define ISO_SIM_START() ((void)0)
#define ISO_SIM_STOP() ((void)0)
#endif

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace iso {
namespace cli {

namespace {

uint64_t total_steals() {
  uint64_t sum = 0;
  int n = adapt_num_workers();
  for (int w = 0; w < n; w++) {
    adapt_worker_stats st;
    if (adapt_stats_get(w, &st) == 0) sum += st.steals;
  }
  return sum;
}

/* ---- Phase: load or generate the mesh --------------------------------- */

/* The mesh of --generate; returns what it is. */
std::string generate_mesh(const Options &o, Mesh *mesh) {
  Grid g;
  for (int k = 0; k < 3; k++) g.np[k] = o.dims[k] + 1;
  g.field = o.field;
  std::string err;
  if (int rc = tetrahedralize_grid(g, o.split, o.order, o.seed, mesh, &err))
    die(rc == -ENOMEM ? EXIT_RUN : EXIT_INPUT, err);
  mesh->array_name = field_name(o.field);
  char buf[160];
  std::snprintf(buf, sizeof buf, "generated %lldx%lldx%lld hexahedra, %s field, split %s, %s order",
                (long long)o.dims[0], (long long)o.dims[1], (long long)o.dims[2],
                mesh->array_name.c_str(), split_name(o.split), order_name(o.order));
  return buf;
}

/* The mesh of --input (a .vtm's tree in *blocks); returns what it is. */
std::string read_input(const Options &o, Mesh *mesh, BlockTree *blocks) {
  /* ReadOptions' fields in their order (vtk_bridge.h) */
  const ReadOptions ro{o.array,        o.tetrahedralize, o.split, o.order,
                       o.cell_scalars, o.all_arrays,     o.arrays};
  std::string err;
  const int rc = read_mesh(o.input, ro, mesh, &err, blocks);
  if (rc) die(rc == -ENOMEM ? EXIT_RUN : EXIT_INPUT, err);
  std::string carried;
  for (const auto *arrays : {&mesh->point_data, &mesh->cell_data})
    for (const MeshArray &a : *arrays) carried += (carried.empty() ? "" : ", ") + a.name;
  return o.input + " (array " + mesh->array_name + ")" +
         (carried.empty() ? "" : " carrying " + carried);
}

} // namespace

void load_mesh(Run &r) {
  if (!r.o.quiet) {
    std::printf("mesh: %s%s...\n", r.o.generate ? "generating" : "reading ", r.o.input.c_str());
    std::fflush(stdout);
  }
  const double t0 = now();
  const std::string source =
      r.o.generate ? generate_mesh(r.o, &r.mesh) : read_input(r.o, &r.mesh, &r.blocks);
  std::string err;
  if (validate(r.mesh, &err)) die(EXIT_INPUT, "invalid mesh: " + err);
  /* --point-order: sequential, part of the load (the runtime starts later). */
  int rc = 0;
  if (r.o.point_order == PointOrder::FirstUse)
    rc = renumber_points_first_use(&r.mesh, &err);
  else if (r.o.point_order == PointOrder::Random)
    rc = shuffle_points(&r.mesh, r.o.seed, &err);
  if (rc) die(EXIT_RUN, err);
  const double secs = now() - t0;
  const Mesh &m = r.mesh;
  r.loc = measure_numbering(m);
  const double mib = (double)mesh_bytes(m) / (1 << 20);
  if (!r.o.quiet)
    std::printf("mesh: %s%s%s: %zu points, %zu tetrahedra, %.0f MiB (%.2f s); numbering: cell "
                "spread %.3g, pair spread %.3g (p90 %.3g)%s\n",
                source.c_str(), r.o.point_order == PointOrder::Keep ? "" : ", points ",
                r.o.point_order == PointOrder::Keep ? "" : point_order_name(r.o.point_order),
                m.pts.size(), m.tets.size(), mib, secs, r.loc.cell_spread, r.loc.pair_spread,
                r.loc.pair_p90, r.loc.pair_spread > ISO_REORDER_POOR_SPREAD ? ": poor" : "");
}

/* ---- Phase: counters, then the runtime -------------------------------- */

/* Counters before the runtime, so the worker and SMP threads created later
 * inherit them (the mesh is read first: input errors come before PAPI's). */
void init_counters(Run &r) {
  r.perf_rc = perfctr_init(&r.pc, r.o.events.empty() ? nullptr : r.o.events.c_str());
  if (r.perf_rc && r.perf_rc != -ECANCELED && !r.o.quiet)
    std::fprintf(stderr, "adapt-isosurface: %s\n", r.pc.message);
  r.nev = r.pc.available ? r.pc.nevents : 0;
}

/* The runtime, and the options of the adaptive modes: the window size is
 * given, else 1/ISO_WINDOW_CACHE_DIVISOR of the shared cache. */
void init_runtime(Run &r) {
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = r.o.workers;
  int rc = adapt_init(&cfg);
  if (rc) {
    /* adapt_last_error names the field and its limit (e.g. the most workers). */
    const std::string detail = adapt_last_error();
    const std::string what =
        detail.empty() ? std::string("adapt_init: ") + adapt_strerror(rc) : detail;
    if (rc == -EINVAL && r.o.workers)
      die(EXIT_USAGE, "--workers " + std::to_string(r.o.workers) + ": " + what);
    die(EXIT_RUN, what);
  }
  r.workers = adapt_num_workers();
  const Mesh &m = r.mesh;
  size_t shared = ISO_FALLBACK_SHARED_CACHE;
  if (size_t c = adapt_shared_cache_size()) shared = c;
  r.aopt = adapt_options(r.o);
  if (!r.aopt.window_size) r.aopt.window_size = default_window(m, shared);
}

/* ---- Phase: --reorder (on the runtime, timed apart), then --save-mesh -- */

namespace {

/* Why --reorder auto left the numbering alone (reorder_needed): a mesh too
 * small for its order to matter, else a numbering that is not poor. */
std::string auto_reason(const Run &r) {
  char buf[200];
  if (r.mesh.pts.size() < (size_t)ISO_REORDER_MIN_POINTS)
    std::snprintf(buf, sizeof buf,
                  " (auto: %zu points, fewer than %d: the points stay in the L2 cache whatever "
                  "their order)",
                  r.mesh.pts.size(), ISO_REORDER_MIN_POINTS);
  else
    std::snprintf(buf, sizeof buf, " (auto: the numbering is not poor: pair spread %.3g <= %g)",
                  r.loc.pair_spread, ISO_REORDER_POOR_SPREAD);
  return buf;
}

} // namespace

void renumber(Run &r) {
  Reorder curve = r.o.reorder;
  if (curve == Reorder::Auto)
    curve = reorder_needed(r.loc, r.mesh.pts.size()) ? Reorder::Hilbert : Reorder::None;
  std::string err;
  r.extracted = r.loc;
  if (curve != Reorder::None) {
    ReorderTiming tm;
    const double t0 = now();
    if (reorder_cells(&r.mesh, curve, &tm, &err)) die(EXIT_RUN, "--reorder: " + err);
    r.reorder_secs = now() - t0;
    r.reordered = curve;
    r.extracted = measure_numbering(r.mesh);
    if (!r.o.quiet) {
      const Numbering &after = r.extracted;
      std::printf("reorder: %s%s, %.1f ms on %d worker(s) (keys %.1f, sort %.1f, cells %.1f, "
                  "points %.1f); numbering: cell spread %.3g, pair spread %.3g (p90 %.3g)\n",
                  reorder_name(curve), r.o.reorder == Reorder::Auto ? " (auto)" : "",
                  1e3 * r.reorder_secs, r.workers, 1e3 * tm.keys, 1e3 * tm.sort, 1e3 * tm.apply,
                  1e3 * tm.points, after.cell_spread, after.pair_spread, after.pair_p90);
    }
  } else if (!r.o.quiet)
    std::printf("reorder: none%s\n", r.o.reorder == Reorder::Auto ? auto_reason(r).c_str() : "");
  if (!r.o.save_mesh.empty()) {
    const bool pvtu = has_extension(r.o.save_mesh, ".pvtu");
    if (pvtu ? write_pieces(r.mesh, r.o.save_mesh, std::max(1, r.o.pieces), &err)
             : write_mesh(r.mesh, r.o.save_mesh, &err))
      die(EXIT_RUN, err);
    if (!r.o.quiet)
      std::printf("mesh written to %s%s\n", r.o.save_mesh.c_str(),
                  pvtu ? (" (" + std::to_string(std::max(1, r.o.pieces)) + " pieces)").c_str()
                       : "");
  }
}

/* ---- Phase: set up the rows ------------------------------------------- */

void set_up_rows(Run &r) {
  for (Mode m : r.o.modes) {
    Row row;
    row.name = mode_name(m);
    row.mode = m;
    if (m == Mode::Static || m == Mode::Sliding) row.window = r.aopt.window_size;
    r.rows.push_back(row);
  }
  if (r.o.peers || r.o.verify) {
    const double t0 = now();
    r.vgrid.reset(new VtkGrid(r.mesh));
    if (!r.o.quiet) {
      std::printf("vtk: the mesh as a vtkUnstructuredGrid for the peers (%.1f s)\n", now() - t0);
      std::fflush(stdout);
    }
    for (Peer p : {Peer::ContourGrid, Peer::Linear3DTBB, Peer::Linear3DSTDThread}) {
      if (!r.o.peers && p != Peer::ContourGrid) continue;
      Row row;
      row.ours = false;
      row.peer = p;
      row.name = peer_name(p);
      r.rows.push_back(row);
    }
  }
  for (Row &row : r.rows) row.counts.assign((size_t)r.nev, {});
  r.surfaces.resize(r.rows.size());
  r.work.resize(r.rows.size());
  if (r.o.isos.size() > 1) r.libs.resize(r.rows.size());
}

/* ---- Phase: --predict-misses (docs/locality.md) ----------------------- */

/* The modelled last-level misses of each of our rows, on the mesh as it is
 * extracted (after --reorder), with the run's workers and window. */
void predict(Run &r) {
  if (!r.o.predict_misses) return;
  size_t cache = r.o.cache_bytes;
  if (!cache) cache = adapt_shared_cache_size();
  if (!cache) cache = ISO_FALLBACK_SHARED_CACHE;
  const double t0 = now();
  double rate = 1;
  for (Row &row : r.rows) {
    if (!row.ours) continue;
    MissPrediction p;
    ScheduleModel s = schedule_of(row.mode, r.workers, r.aopt, r.o.iso);
    s.kernel = r.o.kernel;
    if (int rc = predict_misses(r.mesh, s, {cache}, 0, &p))
      die(EXIT_RUN, std::string("--predict-misses: ") + std::strerror(-rc));
    row.predicted = p.misses[0];
    rate = p.rate;
  }
  if (!r.o.quiet)
    std::printf("model: LRU cache of %zu bytes, cell phase, sampling rate %.3g (%.2f s)\n", cache,
                rate, now() - t0);
}

/* ---- Phase: --positions (untimed runs, after the timed ones) ---------- */

void record_all_positions(Run &r) {
  if (r.o.positions.empty()) return;
  if (FILE *f = std::fopen(r.o.positions.c_str(), "w"))
    std::fclose(f);
  else
    die(EXIT_RUN, "--positions: cannot write '" + r.o.positions + "': " + std::strerror(errno));
  for (const Row &row : r.rows) {
    if (!row.ours || row.mode == Mode::Seq || row.skipped) continue;
    std::vector<PositionEvent> ev;
    std::string err;
    if (record_positions(r.mesh, r.o.iso, row.mode, r.aopt, &ev, &err)) die(EXIT_RUN, err);
    if (int rc = append_positions_csv(r.o.positions, row.mode, row.window, ev))
      die(EXIT_RUN, "--positions: cannot write '" + r.o.positions + "': " + std::strerror(-rc));
  }
  if (!r.o.quiet) std::printf("positions written to %s\n", r.o.positions.c_str());
}

/* ---- Phase: run the rows ---------------------------------------------- */

namespace {

/* A "VmRSS:"-style field of /proc/self/status, KiB, or -1. */
long status_kib(const char *field) {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kib = -1;
  const size_t n = std::strlen(field);
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, field, n) == 0) kib = std::strtol(line + n, nullptr, 10);
  std::fclose(f);
  return kib;
}

/* Reset the process's peak RSS (VmHWM) to its current RSS (Linux >= 4.0);
 * false if it cannot. */
bool reset_peak_rss() {
  FILE *f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

/* One extraction of ours (row i, repetition rep), counted into vals; false
 * if it failed (the row is skipped from then on). */
bool run_ours(Run &r, size_t i, int rep, long long *vals) {
  Row &row = r.rows[i];
  /* The first repetition into a fresh surface (the one verified, and the
   * peak RSS); the later ones into the previous one's, as a program
   * extracting again would (extract() reuses its buffers) unless
   * --fresh-output. */
  Surface fresh;
  Surface &s = rep == 0 || r.o.fresh_output ? fresh : r.work[i];
  /* --verify: the reused memory holds garbage, so that an element the
   * extraction does not write shows (not the previous run's equal value). */
  const bool check_reuse = r.o.verify && &s == &r.work[i];
  if (check_reuse) {
    std::fill(s.xyz.begin(), s.xyz.end(), NAN);
    std::fill(s.tri.begin(), s.tri.end(), (int64_t)-1);
  }
  Timing tm;
  std::string err;
  adapt_stats_reset();
#ifdef __GLIBC__
  /* The memory freed before (the mesh's reading, the previous rows) back
   * to the system first: else the output may take heap memory that is
   * resident already, and the row's peak would depend on what ran before
   * it (the first row read 5-7 MiB less than the same extraction in a
   * later row, docs/benchmarks-isosurface.md, "Cells of 16 bytes"). */
  if (rep == 0) malloc_trim(0);
#endif
  const bool values = r.o.isos.size() > 1;
  if (values && r.o.fresh_output) r.libs[i].release();
  const long rss0 = rep == 0 && reset_peak_rss() ? status_kib("VmRSS:") : -1;
  perfctr_start(&r.pc);
  ISO_SIM_START();
  const double t0 = now();
  int rc = values ? extract_values(r, i, &err)
                  : extract(r.mesh, r.o.iso, row.mode, r.aopt, &s, &tm, &err);
  const double t1 = now();
  ISO_SIM_STOP();
  perfctr_stop(&r.pc, vals);
  if (values) { /* untimed: the library's surface as the others' */
    copy_values(r, i, &s);
    tm.cells = tm.merge = NAN;
  }
  const long hwm = rss0 >= 0 ? status_kib("VmHWM:") : -1;
  if (hwm >= 0) row.rss_extra_mib = (double)(hwm - rss0) / 1024;
  if (rc) {
    std::fprintf(stderr, "adapt-isosurface: mode %s: %s\n", row.name.c_str(), err.c_str());
    row.skipped = true;
    row.note = "failed: " + err;
    r.exit_code = EXIT_RUN;
    return false;
  }
  if (check_reuse) {
    row.reuse_checked++;
    if (!(s == r.surfaces[i])) row.reuse_failed = true;
  }
  if (&s == &r.work[i])
    row.kept_mib = (double)(values ? r.libs[i].kept_bytes() : s.kept.bytes()) / (1 << 20);
  row.secs.push_back(t1 - t0);
  row.cells.push_back(tm.cells);
  row.merges.push_back(tm.merge);
  row.steals.push_back((double)total_steals());
  row.ntris = s.ntris();
  row.nverts = s.nverts();
  if (rep == 0) {
    const size_t out_bytes = s.tri.size() * sizeof(int64_t) + s.xyz.size() * sizeof(double);
    row.out_mib = (double)out_bytes / (1 << 20);
    row.area = s.area();
    row.first_secs = t1 - t0;
    if (!r.o.fresh_output && r.o.reps > 1) {
      try {
        r.work[i] = s; /* untimed: a copy for the next repetition to reuse */
      } catch (const std::bad_alloc &) {
        r.work[i] = Surface(); /* that one then extracts into fresh memory */
      }
    }
    r.surfaces[i] = std::move(s);
  }
  return true;
}

/* One run of a VTK peer, counted into vals; false if it failed. */
bool run_peer(Run &r, Row &row, long long *vals) {
  PeerResult pr;
  std::string err;
  StartCpus unbind;
  perfctr_start(&r.pc);
  int rc = r.vgrid->run(row.peer, r.o.isos, r.workers, &pr, &err);
  perfctr_stop(&r.pc, vals);
  if (rc) {
    std::fprintf(stderr, "adapt-isosurface: %s: %s\n", row.name.c_str(), err.c_str());
    row.skipped = true;
    row.note = err;
    return false;
  }
  row.secs.push_back(pr.seconds);
  row.ntris = pr.ntris;
  row.nverts = pr.npoints_used;
  row.area = pr.area;
  if (pr.npoints != pr.npoints_used)
    row.note = std::to_string(pr.npoints - pr.npoints_used) + " unreferenced points";
  return true;
}

} // namespace

/* Repetitions outermost, so that the modes alternate (A/B). */
void run_rows(Run &r) {
  if (!r.o.quiet) {
    std::printf("run: %d repetition(s) of %zu row(s), the rows alternating\n", r.o.reps,
                r.rows.size());
    std::fflush(stdout);
  }
  for (int rep = 0; rep < r.o.reps; rep++) {
    const double t0 = now();
    for (size_t i = 0; i < r.rows.size(); i++) {
      Row &row = r.rows[i];
      if (row.skipped) continue;
      long long vals[PERFCTR_MAX_EVENTS] = {0};
      if (!(row.ours ? run_ours(r, i, rep, vals) : run_peer(r, row, vals))) continue;
      for (int e = 0; e < r.nev; e++) row.counts[(size_t)e].push_back((double)vals[e]);
    }
    if (!r.o.quiet) {
      std::printf("run: repetition %d/%d done (%.1f s)\n", rep + 1, r.o.reps, now() - t0);
      std::fflush(stdout);
    }
  }
}

} // namespace cli
} // namespace iso
