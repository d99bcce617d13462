/* adapt-isosurface: isosurfaces of tetrahedral meshes, sequential and
 * adaptive (libadapt window algorithms), against VTK's filters, with PAPI
 * cache counters. See docs/isosurface.md. */
#include "iso_config.h"
#include "mesh.h"
#include "mt.h"
#include "vtk_bridge.h"

extern "C" {
#include "perfcounters.h"
}

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

#include <pthread.h>
#include <sched.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace iso;

namespace {

/* Exit codes. */
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_EMPTY = 3, EXIT_VERIFY = 4, EXIT_RUN = 5 };

const char usage[] =
    "usage: adapt-isosurface [options]\n"
    "Input (one of):\n"
    "  --input FILE          .vtu/.vtk unstructured grid of tetrahedra, or image volume\n"
    "                        (.vti .mha .mhd .nii .nii.gz, legacy .vtk structured points)\n"
    "  --generate NX[xNYxNZ] structured box of NX*NY*NZ hexahedra split into tetrahedra\n"
    "    --field sphere|waves|flat   built-in scalar field (default waves)\n"
    "    --split 5|6         tetrahedra per hexahedron (default 5)\n"
    "    --order lex|morton|hilbert|random   cell order (default lex; also for images)\n"
    "    --seed N            seed of the random order (default 1)\n"
    "  --array NAME          point scalars to contour (default: the active scalars)\n"
    "  --tetrahedralize      split non-tetrahedral 3D cells (else they are refused)\n"
    "Extraction:\n"
    "  --iso VALUE           isovalue (default 0 for waves, 0.6 for sphere, else required)\n"
    "  --mode M[,M...]       seq|nowin|static|sliding|all (default seq)\n"
    "  --workers P           libadapt workers (default: env ADAPT_WORKERS, else all PUs)\n"
    "  --window M            window size in cells (default: shared cache / footprint / "
    "4)\n"
    "  --grain G             cells per steal point (default: libadapt's)\n"
    "  --splitter local|distant|balanced  sliding-window splitter (default balanced)\n"
    "  --sched adaptive      loop scheduler (default: env ADAPT_SCHED, else adaptive)\n"
    "  --peers               also run vtkContourGrid and vtkContour3DLinearGrid (TBB, STDThread)\n"
    "  --verify              check every mode against seq (byte for byte) and seq against\n"
    "                        vtkContourGrid (triangles, vertices, area within 1e-6)\n"
    "  --smp-check           diagnostic: match vtkSMPContourGrid's triangles (TBB, P threads)\n"
    "                        against vtkContourGrid's (Debian VTK 9.1 corrupts them with P > 1)\n"
    "Measurement and output:\n"
    "  --reps N              repetitions, median reported (default 3; runs alternate modes)\n"
    "  --events LIST|none    PAPI events, comma-separated (default: env ADAPT_PAPI_EVENTS, else\n"
    "                        "
    "PAPI_TOT_CYC,PAPI_L2_DCM,ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL)\n"
    "  --csv FILE            write the table as CSV\n"
    "  --output FILE.vtp     write the surface (vtkXMLPolyDataWriter)\n"
    "  --save-mesh FILE.vtu  write the tetrahedral mesh\n"
    "  --png FILE.png        render the surface (needs X: run under xvfb-run -a)\n"
    "  --render FILE.vtp     only render FILE.vtp to --png, nothing else\n"
    "  --quiet               only the table\n"
    "  --help\n"
    "Exit status: 0 ok, 1 usage, 2 bad input, 3 empty surface, 4 verification failed, 5 run "
    "error.\n";

struct Options {
  std::string input, array, output, csv, save_mesh, png, render, events;
  bool generate = false, tetrahedralize = false, peers = false, verify = false, quiet = false;
  bool smp_check = false;
  int64_t dims[3] = {0, 0, 0};
  Field field = Field::Waves;
  Split split = Split::Five;
  Order order = Order::Lex;
  uint64_t seed = 1;
  bool iso_set = false;
  double iso = 0;
  std::vector<Mode> modes;
  int workers = 0;
  size_t window = 0, grain = 0;
  int splitter = 0;
  int sched = 0;
  int reps = ISO_DEFAULT_REPS;
};

[[noreturn]] void die(int code, const std::string &msg) {
  std::fprintf(stderr, "adapt-isosurface: %s\n", msg.c_str());
  std::exit(code);
}

bool parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-') return false;
  char *end;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (errno || *end) return false;
  *out = v;
  return true;
}

bool parse_double(const char *s, double *out) {
  if (!s || !*s) return false;
  char *end;
  errno = 0;
  double v = std::strtod(s, &end);
  if (errno || *end || std::isnan(v)) return false;
  *out = v;
  return true;
}

Options parse(int argc, char **argv) {
  Options o;
  auto need = [&](int &i) -> const char * {
    if (i + 1 >= argc) die(EXIT_USAGE, std::string(argv[i]) + " needs a value (see --help)");
    return argv[++i];
  };
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    uint64_t u;
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      std::exit(EXIT_OK);
    } else if (a == "--input")
      o.input = need(i);
    else if (a == "--array")
      o.array = need(i);
    else if (a == "--output")
      o.output = need(i);
    else if (a == "--csv")
      o.csv = need(i);
    else if (a == "--save-mesh")
      o.save_mesh = need(i);
    else if (a == "--png")
      o.png = need(i);
    else if (a == "--render")
      o.render = need(i);
    else if (a == "--events")
      o.events = need(i);
    else if (a == "--tetrahedralize")
      o.tetrahedralize = true;
    else if (a == "--peers")
      o.peers = true;
    else if (a == "--verify")
      o.verify = true;
    else if (a == "--smp-check")
      o.smp_check = true;
    else if (a == "--quiet")
      o.quiet = true;
    else if (a == "--generate") {
      const char *v = need(i);
      uint64_t d[3];
      int n = 0;
      std::stringstream ss(v);
      std::string part;
      while (std::getline(ss, part, 'x') && n < 4) {
        if (n == 3 || !parse_u64(part.c_str(), &d[n]) || d[n] < 1 || d[n] > (1u << 20))
          die(EXIT_USAGE,
              std::string("--generate: expected N or NXxNYxNZ with 1 <= N <= 2^20, got '") + v +
                  "'");
        n++;
      }
      if (n == 1)
        d[1] = d[2] = d[0];
      else if (n != 3)
        die(EXIT_USAGE, std::string("--generate: expected N or NXxNYxNZ, got '") + v + "'");
      o.generate = true;
      for (int k = 0; k < 3; k++) o.dims[k] = (int64_t)d[k];
    } else if (a == "--field") {
      const char *v = need(i);
      if (parse_field(v, &o.field))
        die(EXIT_USAGE, std::string("--field: unknown field '") + v + "'");
    } else if (a == "--split") {
      const char *v = need(i);
      if (parse_split(v, &o.split))
        die(EXIT_USAGE, std::string("--split: expected 5 or 6, got '") + v + "'");
    } else if (a == "--order") {
      const char *v = need(i);
      if (parse_order(v, &o.order))
        die(EXIT_USAGE, std::string("--order: unknown order '") + v + "'");
    } else if (a == "--seed") {
      if (!parse_u64(need(i), &o.seed)) die(EXIT_USAGE, "--seed: expected a non-negative integer");
    } else if (a == "--iso") {
      if (!parse_double(need(i), &o.iso)) die(EXIT_USAGE, "--iso: expected a number");
      o.iso_set = true;
    } else if (a == "--mode") {
      std::stringstream ss(need(i));
      std::string m;
      while (std::getline(ss, m, ',')) {
        Mode md;
        if (m == "all") {
          for (Mode x : {Mode::Seq, Mode::NoWin, Mode::Static, Mode::Sliding}) o.modes.push_back(x);
        } else if (parse_mode(m, &md) == 0)
          o.modes.push_back(md);
        else
          die(EXIT_USAGE, "--mode: unknown mode '" + m + "' (seq, nowin, static, sliding, all)");
      }
    } else if (a == "--workers") {
      if (!parse_u64(need(i), &u) || u < 1 || u > 4096)
        die(EXIT_USAGE, "--workers: expected 1..4096");
      o.workers = (int)u;
    } else if (a == "--window") {
      if (!parse_u64(need(i), &u) || u < 1)
        die(EXIT_USAGE, "--window: expected a positive integer");
      o.window = (size_t)u;
    } else if (a == "--grain") {
      if (!parse_u64(need(i), &u) || u < 1) die(EXIT_USAGE, "--grain: expected a positive integer");
      o.grain = (size_t)u;
    } else if (a == "--splitter") {
      const std::string v = need(i);
      if (v == "local")
        o.splitter = 1;
      else if (v == "distant")
        o.splitter = 2;
      else if (v == "balanced")
        o.splitter = 3;
      else
        die(EXIT_USAGE, "--splitter: expected local, distant or balanced");
    } else if (a == "--sched") {
      const std::string v = need(i);
      if (v == "adaptive")
        o.sched = 1; /* ADAPT_SCHED_ADAPTIVE */
      else
        die(EXIT_USAGE,
            "--sched: expected adaptive (the extraction is adapt_transform_var, whose "
            "output is merged in sequence order: only the adaptive scheduler does that)");
    } else if (a == "--reps") {
      if (!parse_u64(need(i), &u) || u < 1 || u > 1000) die(EXIT_USAGE, "--reps: expected 1..1000");
      o.reps = (int)u;
    } else
      die(EXIT_USAGE, "unknown option '" + a + "' (see --help)");
  }
  if (!o.render.empty()) {
    if (o.png.empty()) die(EXIT_USAGE, "--render needs --png FILE.png");
    return o;
  }
  if (o.generate == !o.input.empty())
    die(EXIT_USAGE, "give exactly one of --input FILE or --generate N (see --help)");
  if (o.modes.empty()) o.modes.push_back(Mode::Seq);
  std::vector<Mode> uniq;
  for (Mode m : o.modes)
    if (std::find(uniq.begin(), uniq.end(), m) == uniq.end()) uniq.push_back(m);
  o.modes = uniq;
  if (!o.iso_set) {
    if (o.generate && o.field == Field::Waves)
      o.iso = 0.0;
    else if (o.generate && o.field == Field::Sphere)
      o.iso = 0.6;
    else
      die(EXIT_USAGE, "--iso VALUE is required for this input");
  }
  return o;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One row of the table: a mode of ours or a VTK peer. */
struct Row {
  std::string name;
  bool ours = true;
  Mode mode = Mode::Seq;
  Peer peer = Peer::ContourGrid;
  bool skipped = false;
  std::string note;
  std::vector<double> secs, cells, merges, steals;
  std::vector<std::vector<double>> counts; /* [event][rep] */
  size_t ntris = 0, nverts = 0;
  double area = 0;
  size_t window = 0;
};

std::string short_event(const std::string &e) {
  if (e == "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL" || e == "PAPI_L3_TCM" ||
      e == "PAPI_L3_DCM")
    return "LLC";
  if (e == "PAPI_L2_DCM" || e == "PAPI_L2_TCM") return "L2";
  if (e == "PAPI_TOT_CYC") return "cyc";
  if (e.rfind("PAPI_", 0) == 0) return e.substr(5);
  return e.substr(0, 12);
}

uint64_t total_steals() {
  uint64_t sum = 0;
  int n = adapt_num_workers();
  for (int w = 0; w < n; w++) {
    adapt_worker_stats st;
    if (adapt_stats_get(w, &st) == 0) sum += st.steals;
  }
  return sum;
}

/* libadapt binds the calling thread (worker 0) to one PU. TBB sizes its
 * pool from the affinity mask it sees at its first use and the STDThread
 * pool's threads inherit it: let the VTK peers run with every CPU, then
 * restore the binding. */
class AllCpus {
public:
  AllCpus() {
    ok_ = pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) == 0;
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < get_nprocs_conf() && c < CPU_SETSIZE; c++) CPU_SET(c, &all);
    if (ok_) pthread_setaffinity_np(pthread_self(), sizeof all, &all);
  }
  ~AllCpus() {
    if (ok_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
  }

private:
  cpu_set_t saved_;
  bool ok_ = false;
};

void reset_steals() {
  adapt_stats_reset();
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  std::string err;

  if (!o.render.empty()) {
    Surface s;
    if (read_vtp(o.render, &s, &err)) die(EXIT_INPUT, err);
    char title[160];
    std::snprintf(title, sizeof title, "%s: %zu triangles, %zu vertices", o.render.c_str(),
                  s.ntris(), s.nverts());
    if (render_png(s, o.png, ISO_PNG_WIDTH, ISO_PNG_HEIGHT, title, &err)) die(EXIT_RUN, err);
    if (!o.quiet) std::printf("rendered %s -> %s\n", o.render.c_str(), o.png.c_str());
    return EXIT_OK;
  }

  /* The mesh. */
  Mesh mesh;
  const double tm0 = now();
  std::string source;
  if (o.generate) {
    Grid g;
    for (int k = 0; k < 3; k++) g.np[k] = o.dims[k] + 1;
    g.field = o.field;
    if (int rc = tetrahedralize_grid(g, o.split, o.order, o.seed, &mesh, &err))
      die(rc == -ENOMEM ? EXIT_RUN : EXIT_INPUT, err);
    mesh.array_name = o.field == Field::Sphere  ? "sphere"
                      : o.field == Field::Waves ? "waves"
                                                : "flat";
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "generated %lldx%lldx%lld hexahedra, %s field, split %d, %s order",
                  (long long)o.dims[0], (long long)o.dims[1], (long long)o.dims[2],
                  mesh.array_name.c_str(), o.split == Split::Five ? 5 : 6, order_name(o.order));
    source = buf;
  } else {
    ReadOptions ro;
    ro.array = o.array;
    ro.tetrahedralize = o.tetrahedralize;
    ro.split = o.split;
    ro.order = o.order;
    if (int rc = read_mesh(o.input, ro, &mesh, &err))
      die(rc == -ENOMEM ? EXIT_RUN : EXIT_INPUT, err);
    source = o.input + " (array " + mesh.array_name + ")";
  }
  if (validate(mesh, &err)) die(EXIT_INPUT, "invalid mesh: " + err);
  const double mesh_s = now() - tm0;
  const double mib =
      (double)(mesh.pts.size() * sizeof(Point) + mesh.tets.size() * sizeof(Tet)) / (1 << 20);
  if (!o.quiet)
    std::printf("mesh: %s: %zu points, %zu tetrahedra, %.0f MiB (%.2f s)\n", source.c_str(),
                mesh.pts.size(), mesh.tets.size(), mib, mesh_s);
  if (!o.save_mesh.empty()) {
    if (write_vtu(mesh, o.save_mesh, &err)) die(EXIT_RUN, err);
    if (!o.quiet) std::printf("mesh written to %s\n", o.save_mesh.c_str());
  }

  /* Counters before the runtime, so the worker and SMP threads created later
   * inherit them (the mesh is read first: input errors come before PAPI's). */
  perfctr pc;
  int prc = perfctr_init(&pc, o.events.empty() ? nullptr : o.events.c_str());
  if (prc && prc != -ECANCELED) std::fprintf(stderr, "adapt-isosurface: %s\n", pc.message);

  int workers = 1;
  {
    adapt_config cfg;
    std::memset(&cfg, 0, sizeof cfg);
    cfg.workers = o.workers;
    int rc = adapt_init(&cfg);
    if (rc) die(EXIT_RUN, std::string("adapt_init: ") + adapt_strerror(rc));
    workers = adapt_num_workers();
  }

  /* Window size: given, else 1/ISO_WINDOW_CACHE_DIVISOR of the shared cache. */
  size_t footprint =
      sizeof(Tet) + (mesh.tets.empty() ? 0 : sizeof(Point) * mesh.pts.size() / mesh.tets.size());
  size_t shared = ISO_FALLBACK_SHARED_CACHE;
  if (size_t c = adapt_shared_cache_size()) shared = c;
  AdaptOptions aopt;
  aopt.grain = o.grain;
  aopt.splitter = o.splitter;
  aopt.sched = o.sched;
  aopt.window_size =
      o.window ? o.window : std::max<size_t>(1, shared / (footprint * ISO_WINDOW_CACHE_DIVISOR));

  /* The rows. */
  std::vector<Row> rows;
  for (Mode m : o.modes) {
    Row r;
    r.name = mode_name(m);
    r.mode = m;
    if (m == Mode::Static || m == Mode::Sliding) r.window = aopt.window_size;
    rows.push_back(r);
  }
  std::unique_ptr<VtkGrid> vgrid;
  if (o.peers || o.verify) {
    vgrid.reset(new VtkGrid(mesh));
    for (Peer p : {Peer::ContourGrid, Peer::Linear3DTBB, Peer::Linear3DSTDThread}) {
      if (!o.peers && p != Peer::ContourGrid) continue;
      Row r;
      r.ours = false;
      r.peer = p;
      r.name = peer_name(p);
      rows.push_back(r);
    }
  }
  const int nev = pc.available ? pc.nevents : 0;
  for (Row &r : rows) r.counts.assign((size_t)nev, {});

  /* Runs: repetitions outermost so that the modes alternate (A/B). */
  std::vector<Surface> surfaces(rows.size());
  int exit_code = EXIT_OK;
  for (int rep = 0; rep < o.reps; rep++) {
    for (size_t i = 0; i < rows.size(); i++) {
      Row &r = rows[i];
      if (r.skipped) continue;
      long long vals[PERFCTR_MAX_EVENTS] = {0};
      if (r.ours) {
        Surface s;
        Timing tm;
        reset_steals();
        perfctr_start(&pc);
        ISO_SIM_START();
        const double t0 = now();
        int rc = extract(mesh, o.iso, r.mode, aopt, &s, &tm, &err);
        const double t1 = now();
        ISO_SIM_STOP();
        perfctr_stop(&pc, vals);
        if (rc) {
          std::fprintf(stderr, "adapt-isosurface: mode %s: %s\n", r.name.c_str(), err.c_str());
          r.skipped = true;
          r.note = "failed: " + err;
          exit_code = EXIT_RUN;
          continue;
        }
        r.secs.push_back(t1 - t0);
        r.cells.push_back(tm.cells);
        r.merges.push_back(tm.merge);
        r.steals.push_back((double)total_steals());
        r.ntris = s.ntris();
        r.nverts = s.nverts();
        if (rep == 0) {
          r.area = s.area();
          surfaces[i] = std::move(s);
        }
      } else {
        PeerResult pr;
        AllCpus unbind;
        perfctr_start(&pc);
        int rc = vgrid->run(r.peer, o.iso, workers, &pr, &err);
        perfctr_stop(&pc, vals);
        if (rc) {
          std::fprintf(stderr, "adapt-isosurface: %s: %s\n", r.name.c_str(), err.c_str());
          r.skipped = true;
          r.note = err;
          continue;
        }
        r.secs.push_back(pr.seconds);
        r.ntris = pr.ntris;
        r.nverts = pr.npoints_used;
        r.area = pr.area;
        if (pr.npoints != pr.npoints_used)
          r.note = std::to_string(pr.npoints - pr.npoints_used) + " unreferenced points";
      }
      for (int e = 0; e < nev; e++) r.counts[(size_t)e].push_back((double)vals[e]);
    }
  }

  /* Table. */
  const Row *seq = nullptr;
  for (const Row &r : rows)
    if (r.ours && r.mode == Mode::Seq && !r.skipped) seq = &r;
  const double tseq = seq ? median(seq->secs) : NAN;
  std::printf("\nisosurface at iso=%g, %d worker(s), %zu tetrahedra, median of %d run(s)\n", o.iso,
              workers, mesh.tets.size(), o.reps);
  std::printf("%-27s %9s %9s %9s %8s", "mode", "time ms", "cells ms", "merge ms", "speedup");
  for (int e = 0; e < nev; e++) std::printf(" %9s", (short_event(pc.names[e]) + "/seq").c_str());
  std::printf(" %8s %9s %9s %9s\n", "steals", "window", "triangles", "vertices");
  FILE *csv = nullptr;
  if (!o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (!csv) die(EXIT_RUN, "cannot write '" + o.csv + "': " + std::strerror(errno));
    std::fprintf(
        csv,
        "name,kind,workers,tets,time_s,cells_s,merge_s,speedup,steals,window,triangles,vertices");
    for (int e = 0; e < nev; e++) std::fprintf(csv, ",%s,%s_rel", pc.names[e], pc.names[e]);
    std::fprintf(csv, "\n");
  }
  for (const Row &r : rows) {
    if (r.skipped) {
      std::printf("%-27s skipped: %s\n", r.name.c_str(), r.note.c_str());
      continue;
    }
    const double t = median(r.secs);
    std::printf("%-27s %9.1f", r.name.c_str(), 1e3 * t);
    if (r.ours)
      std::printf(" %9.1f %9.1f", 1e3 * median(r.cells), 1e3 * median(r.merges));
    else
      std::printf(" %9s %9s", "-", "-");
    std::printf(" %8.2f", tseq / t);
    for (int e = 0; e < nev; e++) {
      const double base = seq ? median(seq->counts[(size_t)e]) : NAN;
      std::printf(" %9.2f", median(r.counts[(size_t)e]) / base);
    }
    if (r.ours && r.mode != Mode::Seq)
      std::printf(" %8.0f", median(r.steals));
    else
      std::printf(" %8s", "-");
    if (r.window)
      std::printf(" %9zu", r.window);
    else
      std::printf(" %9s", "-");
    std::printf(" %9zu %9zu%s%s\n", r.ntris, r.nverts, r.note.empty() ? "" : "  ", r.note.c_str());
    if (csv) {
      std::fprintf(csv, "%s,%s,%d,%zu,%.9g,%.9g,%.9g,%.6g,%.0f,%zu,%zu,%zu", r.name.c_str(),
                   r.ours ? "libadapt" : "vtk", workers, mesh.tets.size(), t,
                   r.ours ? median(r.cells) : NAN, r.ours ? median(r.merges) : NAN, tseq / t,
                   r.ours && r.mode != Mode::Seq ? median(r.steals) : 0.0, r.window, r.ntris,
                   r.nverts);
      for (int e = 0; e < nev; e++) {
        const double v = median(r.counts[(size_t)e]);
        std::fprintf(csv, ",%.0f,%.6g", v, seq ? v / median(seq->counts[(size_t)e]) : NAN);
      }
      std::fprintf(csv, "\n");
    }
  }
  if (csv) std::fclose(csv);
  if (!pc.available)
    std::printf("(no cache counters: %s)\n",
                prc == -ECANCELED ? "disabled" : "PAPI unavailable, see above");

  /* Verification. */
  const Surface *ref = nullptr;
  for (size_t i = 0; i < rows.size(); i++)
    if (rows[i].ours && !rows[i].skipped) {
      ref = &surfaces[i];
      break;
    }
  if (o.verify && ref) {
    bool ok = true;
    for (size_t i = 0; i < rows.size(); i++) {
      const Row &r = rows[i];
      if (!r.ours || r.skipped || &surfaces[i] == ref) continue;
      const bool same = surfaces[i] == *ref;
      std::printf("verify: %-8s == %s byte for byte: %s\n", r.name.c_str(), rows[0].name.c_str(),
                  same ? "ok" : "FAILED");
      ok &= same;
    }
    for (const Row &r : rows) {
      if (r.ours || r.skipped) continue;
      const double rel = std::fabs(r.area - ref->area()) / std::max(1e-300, std::fabs(r.area));
      const bool match = r.ntris == ref->ntris() && r.nverts == ref->nverts() &&
                         (rel <= ISO_AREA_RTOL || (r.area == 0 && ref->area() == 0));
      std::printf(
          "verify: %-27s triangles %zu vs %zu, vertices %zu vs %zu, area rel. diff %.2e: %s\n",
          r.name.c_str(), ref->ntris(), r.ntris, ref->nverts(), r.nverts, rel,
          match ? "ok" : (r.peer == Peer::ContourGrid ? "FAILED" : "differs (not the reference)"));
      if (r.peer == Peer::ContourGrid) ok &= match;
    }
    if (!ok && exit_code == EXIT_OK) exit_code = EXIT_VERIFY;
  }

  if (o.smp_check) {
    if (!vgrid) vgrid.reset(new VtkGrid(mesh));
    size_t nt = 0, bad = 0;
    AllCpus unbind;
    if (vgrid->smp_contour_check(o.iso, workers, &nt, &bad, &err)) die(EXIT_RUN, err);
    std::printf(
        "smp-check: vtkSMPContourGrid (TBB, %d threads): %zu triangles, %zu (%.2f%%) not in "
        "vtkContourGrid's output\n",
        workers, nt, bad, nt ? 100.0 * (double)bad / (double)nt : 0.0);
  }

  if (ref && ref->ntris() == 0) {
    std::fprintf(
        stderr,
        "adapt-isosurface: empty surface: no cell crosses iso=%g (scalars of '%s' in [%g, %g])\n",
        o.iso, mesh.array_name.c_str(),
        std::min_element(mesh.pts.begin(), mesh.pts.end(),
                         [](const Point &a, const Point &b) { return a.s < b.s; })
            ->s,
        std::max_element(mesh.pts.begin(), mesh.pts.end(), [](const Point &a, const Point &b) {
          return a.s < b.s;
        })->s);
    if (exit_code == EXIT_OK) exit_code = EXIT_EMPTY;
  } else if (ref) {
    if (!o.output.empty()) {
      if (write_vtp(*ref, o.output, &err)) die(EXIT_RUN, err);
      if (!o.quiet) std::printf("surface written to %s\n", o.output.c_str());
    }
    if (!o.png.empty()) {
      char title[160];
      std::snprintf(title, sizeof title, "iso=%g: %zu triangles, %zu vertices", o.iso, ref->ntris(),
                    ref->nverts());
      if (render_png(*ref, o.png, ISO_PNG_WIDTH, ISO_PNG_HEIGHT, title, &err)) die(EXIT_RUN, err);
      if (!o.quiet) std::printf("rendering written to %s\n", o.png.c_str());
    }
  }
  perfctr_destroy(&pc);
  adapt_finalize();
  return exit_code;
}
