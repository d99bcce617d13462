/* adapt-isosurface: isosurfaces of tetrahedral meshes, sequential and
 * adaptive (libadapt window algorithms), against VTK's filters, with PAPI
 * cache counters. See docs/isosurface.md. main() is the list of phases:
 * parse the options, load or generate the mesh, start the counters and the
 * runtime, set up the rows (our modes, VTK's peers), run them, print the
 * table (and the CSV), verify, the SMP diagnostic, write the surface and
 * render it. */
#include "iso_config.h"
#include "mesh.h"
#include "mt.h"
#include "names.h"
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
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
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
    "  --tetrahedralize      split linear 3D cells into tetrahedra (else they are refused;\n"
    "                        2D cells are always refused)\n"
    "Extraction:\n"
    "  --iso VALUE           isovalue (default 0 for waves, 0.6 for sphere, else required)\n"
    "  --mode M[,M...]       seq|nowin|static|sliding|all (default seq)\n"
    "  --workers P           libadapt workers (default: env ADAPT_WORKERS, else all PUs;\n"
    "                        at most libadapt's limit, named if exceeded)\n"
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
    "  --quiet               only the table (no warnings, e.g. about missing counters)\n"
    "  --version             the app's, libadapt's and VTK's versions\n"
    "  --help\n"
    "Options taking a value refuse one that starts with '--' (another option).\n"
    "Output paths (--output, --csv, --save-mesh, --png) are checked before the extraction.\n"
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

/* ---- Phase: parse the options ----------------------------------------- */

/* The options whose value is stored as given, and those without a value. */
const struct {
  const char *flag;
  std::string Options::*value;
} string_options[] = {{"--input", &Options::input},         {"--array", &Options::array},
                      {"--output", &Options::output},       {"--csv", &Options::csv},
                      {"--save-mesh", &Options::save_mesh}, {"--png", &Options::png},
                      {"--render", &Options::render},       {"--events", &Options::events}};
const struct {
  const char *flag;
  bool Options::*value;
} bool_options[] = {{"--tetrahedralize", &Options::tetrahedralize},
                    {"--peers", &Options::peers},
                    {"--verify", &Options::verify},
                    {"--smp-check", &Options::smp_check},
                    {"--quiet", &Options::quiet}};

const Named<int> splitter_names[] = {{"local", ADAPT_SPLITTER_LOCAL},
                                     {"distant", ADAPT_SPLITTER_DISTANT},
                                     {"balanced", ADAPT_SPLITTER_BALANCED}};

/* The entry of table for flag, or nullptr. */
template <class Entry, size_t N>
const Entry *find_option(const Entry (&table)[N], const std::string &flag) {
  for (const Entry &e : table)
    if (flag == e.flag) return &e;
  return nullptr;
}

/* An integer option's value v in [lo, hi], else exit: "FLAG: expected WHAT". */
uint64_t need_integer(const std::string &flag, const char *v, uint64_t lo, uint64_t hi,
                      const char *what) {
  uint64_t u;
  if (!parse_u64(v, &u) || u < lo || u > hi) die(EXIT_USAGE, flag + ": expected " + what);
  return u;
}

/* An enumerated option's value v through parse, else exit: message, v, "'". */
template <class E>
void need_named(int (*parse)(const std::string &, E *), const char *v, E *out,
                const std::string &message) {
  if (parse(v, out)) die(EXIT_USAGE, message + v + "'");
}

/* --generate N or NXxNYxNZ. */
void parse_dims(const char *v, int64_t dims[3]) {
  uint64_t d[3];
  int n = 0;
  std::stringstream ss(v);
  std::string part;
  while (std::getline(ss, part, 'x') && n < 4) {
    if (n == 3 || !parse_u64(part.c_str(), &d[n]) || d[n] < 1 || d[n] > (1u << 20))
      die(EXIT_USAGE,
          std::string("--generate: expected N or NXxNYxNZ with 1 <= N <= 2^20, got '") + v + "'");
    n++;
  }
  if (n == 1)
    d[1] = d[2] = d[0];
  else if (n != 3)
    die(EXIT_USAGE, std::string("--generate: expected N or NXxNYxNZ, got '") + v + "'");
  for (int k = 0; k < 3; k++) dims[k] = (int64_t)d[k];
}

/* --mode M[,M...], appended to modes. */
void parse_modes(const char *v, std::vector<Mode> *modes) {
  std::stringstream ss(v);
  std::string m;
  while (std::getline(ss, m, ',')) {
    Mode md;
    if (m == "all") {
      for (Mode x : {Mode::Seq, Mode::NoWin, Mode::Static, Mode::Sliding}) modes->push_back(x);
    } else if (parse_mode(m, &md) == 0)
      modes->push_back(md);
    else
      die(EXIT_USAGE, "--mode: unknown mode '" + m + "' (seq, nowin, static, sliding, all)");
  }
}

/* A file the run will write: die now (before any extraction) if it cannot
 * be: its directory missing or not writable, the path a directory, or an
 * existing file not writable. */
void check_writable(const char *flag, const std::string &path) {
  struct stat st;
  std::string why;
  if (path.empty())
    why = "empty path";
  else if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      why = "is a directory";
    else if (access(path.c_str(), W_OK) != 0)
      why = std::strerror(errno);
  } else if (errno != ENOENT)
    why = std::strerror(errno);
  else {
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : path.substr(0, slash);
    if (stat(dir.c_str(), &st) != 0)
      why = "directory '" + dir + "': " + std::strerror(errno);
    else if (!S_ISDIR(st.st_mode))
      why = "'" + dir + "' is not a directory";
    else if (access(dir.c_str(), W_OK | X_OK) != 0)
      why = "directory '" + dir + "': " + std::strerror(errno);
  }
  if (!why.empty()) die(EXIT_USAGE, std::string(flag) + ": cannot write '" + path + "': " + why);
}

/* The checks and defaults that depend on several options. */
void complete(Options &o) {
  if (!o.render.empty()) {
    if (o.png.empty()) die(EXIT_USAGE, "--render needs --png FILE.png");
    check_writable("--png", o.png);
    return;
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
  const struct {
    const char *flag;
    const std::string &path;
  } outputs[] = {
      {"--output", o.output}, {"--csv", o.csv}, {"--save-mesh", o.save_mesh}, {"--png", o.png}};
  for (const auto &out : outputs)
    if (!out.path.empty()) check_writable(out.flag, out.path);
}

Options parse_options(int argc, char **argv) {
  Options o;
  /* The value of option argv[i]: the next argument, unless it is missing or
   * another option ("--array --iso 150" must not name the array "--iso"). */
  auto need = [&](int &i) -> const char * {
    if (i + 1 >= argc) die(EXIT_USAGE, std::string(argv[i]) + " needs a value (see --help)");
    if (std::strncmp(argv[i + 1], "--", 2) == 0)
      die(EXIT_USAGE, std::string(argv[i]) + " needs a value, got the option '" + argv[i + 1] +
                          "' (see --help)");
    return argv[++i];
  };
  const uint64_t any = UINT64_MAX;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      std::exit(EXIT_OK);
    } else if (a == "--version") {
      std::printf("adapt-isosurface %d.%d.%d (libadapt %s at run time, VTK %s)\n",
                  ADAPT_VERSION_MAJOR, ADAPT_VERSION_MINOR, ADAPT_VERSION_PATCH,
                  adapt_version_string(), vtk_version().c_str());
      std::exit(EXIT_OK);
    } else if (const auto *s = find_option(string_options, a))
      o.*(s->value) = need(i);
    else if (const auto *b = find_option(bool_options, a))
      o.*(b->value) = true;
    else if (a == "--generate") {
      parse_dims(need(i), o.dims);
      o.generate = true;
    } else if (a == "--field")
      need_named(parse_field, need(i), &o.field, "--field: unknown field '");
    else if (a == "--split")
      need_named(parse_split, need(i), &o.split, "--split: expected 5 or 6, got '");
    else if (a == "--order")
      need_named(parse_order, need(i), &o.order, "--order: unknown order '");
    else if (a == "--seed")
      o.seed = need_integer(a, need(i), 0, any, "a non-negative integer");
    else if (a == "--iso") {
      if (!parse_double(need(i), &o.iso)) die(EXIT_USAGE, "--iso: expected a number");
      o.iso_set = true;
    } else if (a == "--mode")
      parse_modes(need(i), &o.modes);
    else if (a == "--workers")
      o.workers = (int)need_integer(a, need(i), 1, INT_MAX, "a positive integer");
    else if (a == "--window")
      o.window = (size_t)need_integer(a, need(i), 1, any, "a positive integer");
    else if (a == "--grain")
      o.grain = (size_t)need_integer(a, need(i), 1, any, "a positive integer");
    else if (a == "--splitter") {
      if (parse_named(splitter_names, need(i), &o.splitter))
        die(EXIT_USAGE, "--splitter: expected local, distant or balanced");
    } else if (a == "--sched") {
      if (std::string(need(i)) != "adaptive")
        die(EXIT_USAGE,
            "--sched: expected adaptive (the extraction is adapt_transform_var, whose "
            "output is merged in sequence order: only the adaptive scheduler does that)");
      o.sched = ADAPT_SCHED_ADAPTIVE;
    } else if (a == "--reps")
      o.reps = (int)need_integer(a, need(i), 1, 1000, "1..1000");
    else
      die(EXIT_USAGE, "unknown option '" + a + "' (see --help)");
  }
  complete(o);
  return o;
}

/* ---- What the phases share -------------------------------------------- */

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

/* The state the phases build and read, in the order of main(). */
struct Run {
  Options o;
  Mesh mesh;
  perfctr pc{};
  int perf_rc = 0; /* perfctr_init's code */
  int nev = 0;     /* events counted */
  int workers = 1;
  AdaptOptions aopt;
  std::vector<Row> rows;
  std::vector<Surface> surfaces;  /* per row: our surface of the first repetition */
  std::unique_ptr<VtkGrid> vgrid; /* for the peers, the verification, --smp-check */
  int exit_code = EXIT_OK;
};

/* The surface the others are checked against: the first of our rows run. */
const Surface *reference(const Run &r) {
  for (size_t i = 0; i < r.rows.size(); i++)
    if (r.rows[i].ours && !r.rows[i].skipped) return &r.surfaces[i];
  return nullptr;
}

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

/* Render surface s to o.png, titled. */
void render(const Options &o, const Surface &s, const char *title) {
  std::string err;
  if (render_png(s, o.png, ISO_PNG_WIDTH, ISO_PNG_HEIGHT, title, &err)) die(EXIT_RUN, err);
}

/* ---- Phase (alone): --render FILE.vtp --png FILE.png ------------------- */

int render_file(const Options &o) {
  Surface s;
  std::string err;
  if (read_vtp(o.render, &s, &err)) die(EXIT_INPUT, err);
  char title[160];
  std::snprintf(title, sizeof title, "%s: %zu triangles, %zu vertices", o.render.c_str(), s.ntris(),
                s.nverts());
  render(o, s, title);
  if (!o.quiet) std::printf("rendered %s -> %s\n", o.render.c_str(), o.png.c_str());
  return EXIT_OK;
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

/* The mesh of --input; returns what it is. */
std::string read_input(const Options &o, Mesh *mesh) {
  ReadOptions ro;
  ro.array = o.array;
  ro.tetrahedralize = o.tetrahedralize;
  ro.split = o.split;
  ro.order = o.order;
  std::string err;
  if (int rc = read_mesh(o.input, ro, mesh, &err)) die(rc == -ENOMEM ? EXIT_RUN : EXIT_INPUT, err);
  return o.input + " (array " + mesh->array_name + ")";
}

void load_mesh(Run &r) {
  const double t0 = now();
  const std::string source = r.o.generate ? generate_mesh(r.o, &r.mesh) : read_input(r.o, &r.mesh);
  std::string err;
  if (validate(r.mesh, &err)) die(EXIT_INPUT, "invalid mesh: " + err);
  const double secs = now() - t0;
  const Mesh &m = r.mesh;
  const double mib =
      (double)(m.pts.size() * sizeof(Point) + m.tets.size() * sizeof(Tet)) / (1 << 20);
  if (!r.o.quiet)
    std::printf("mesh: %s: %zu points, %zu tetrahedra, %.0f MiB (%.2f s)\n", source.c_str(),
                m.pts.size(), m.tets.size(), mib, secs);
  if (!r.o.save_mesh.empty()) {
    if (write_vtu(m, r.o.save_mesh, &err)) die(EXIT_RUN, err);
    if (!r.o.quiet) std::printf("mesh written to %s\n", r.o.save_mesh.c_str());
  }
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
  size_t footprint =
      sizeof(Tet) + (m.tets.empty() ? 0 : sizeof(Point) * m.pts.size() / m.tets.size());
  size_t shared = ISO_FALLBACK_SHARED_CACHE;
  if (size_t c = adapt_shared_cache_size()) shared = c;
  r.aopt.grain = r.o.grain;
  r.aopt.splitter = r.o.splitter;
  r.aopt.sched = r.o.sched;
  r.aopt.window_size = r.o.window
                           ? r.o.window
                           : std::max<size_t>(1, shared / (footprint * ISO_WINDOW_CACHE_DIVISOR));
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
    r.vgrid.reset(new VtkGrid(r.mesh));
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
}

/* ---- Phase: run the rows ---------------------------------------------- */

/* One extraction of ours (row i, repetition rep), counted into vals; false
 * if it failed (the row is skipped from then on). */
bool run_ours(Run &r, size_t i, int rep, long long *vals) {
  Row &row = r.rows[i];
  Surface s;
  Timing tm;
  std::string err;
  adapt_stats_reset();
  perfctr_start(&r.pc);
  ISO_SIM_START();
  const double t0 = now();
  int rc = extract(r.mesh, r.o.iso, row.mode, r.aopt, &s, &tm, &err);
  const double t1 = now();
  ISO_SIM_STOP();
  perfctr_stop(&r.pc, vals);
  if (rc) {
    std::fprintf(stderr, "adapt-isosurface: mode %s: %s\n", row.name.c_str(), err.c_str());
    row.skipped = true;
    row.note = "failed: " + err;
    r.exit_code = EXIT_RUN;
    return false;
  }
  row.secs.push_back(t1 - t0);
  row.cells.push_back(tm.cells);
  row.merges.push_back(tm.merge);
  row.steals.push_back((double)total_steals());
  row.ntris = s.ntris();
  row.nverts = s.nverts();
  if (rep == 0) {
    row.area = s.area();
    r.surfaces[i] = std::move(s);
  }
  return true;
}

/* One run of a VTK peer, counted into vals; false if it failed. */
bool run_peer(Run &r, Row &row, long long *vals) {
  PeerResult pr;
  std::string err;
  AllCpus unbind;
  perfctr_start(&r.pc);
  int rc = r.vgrid->run(row.peer, r.o.iso, r.workers, &pr, &err);
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

/* Repetitions outermost, so that the modes alternate (A/B). */
void run_rows(Run &r) {
  for (int rep = 0; rep < r.o.reps; rep++)
    for (size_t i = 0; i < r.rows.size(); i++) {
      Row &row = r.rows[i];
      if (row.skipped) continue;
      long long vals[PERFCTR_MAX_EVENTS] = {0};
      if (!(row.ours ? run_ours(r, i, rep, vals) : run_peer(r, row, vals))) continue;
      for (int e = 0; e < r.nev; e++) row.counts[(size_t)e].push_back((double)vals[e]);
    }
}

/* ---- Phase: the table and the CSV ------------------------------------- */

void print_row(const Run &r, const Row &row, const Row *seq, double tseq) {
  const double t = median(row.secs);
  std::printf("%-27s %9.1f", row.name.c_str(), 1e3 * t);
  if (row.ours)
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
  for (int e = 0; e < r.nev; e++)
    relative(median(row.counts[(size_t)e]), seq ? median(seq->counts[(size_t)e]) : NAN, 9);
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
      csv,
      "name,kind,workers,tets,time_s,cells_s,merge_s,speedup,steals,window,triangles,vertices");
  for (int e = 0; e < r.nev; e++) std::fprintf(csv, ",%s,%s_rel", r.pc.names[e], r.pc.names[e]);
  std::fprintf(csv, "\n");
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
  for (int e = 0; e < r.nev; e++) {
    const double v = median(row.counts[(size_t)e]);
    std::fprintf(csv, ",%s,%s", csv_num(v, "%.0f").c_str(),
                 csv_num(seq ? v / median(seq->counts[(size_t)e]) : NAN, "%.6g").c_str());
  }
  std::fprintf(csv, "\n");
}

void print_table(const Run &r) {
  const Row *seq = nullptr;
  for (const Row &row : r.rows)
    if (row.ours && row.mode == Mode::Seq && !row.skipped) seq = &row;
  const double tseq = seq ? median(seq->secs) : NAN;
  std::printf("\nisosurface at iso=%g, %d worker(s), %zu tetrahedra, median of %d run(s)\n",
              r.o.iso, r.workers, r.mesh.tets.size(), r.o.reps);
  std::printf("%-27s %9s %9s %9s %8s", "mode", "time ms", "cells ms", "merge ms", "speedup");
  for (int e = 0; e < r.nev; e++)
    std::printf(" %9s", (short_event(r.pc.names[e]) + "/seq").c_str());
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
    if (row.ours || row.skipped) continue;
    const double rel = std::fabs(row.area - ref->area()) / std::max(1e-300, std::fabs(row.area));
    const bool match = row.ntris == ref->ntris() && row.nverts == ref->nverts() &&
                       (rel <= ISO_AREA_RTOL || (row.area == 0 && ref->area() == 0));
    std::printf(
        "verify: %-27s triangles %zu vs %zu, vertices %zu vs %zu, area rel. diff %.2e: %s\n",
        row.name.c_str(), ref->ntris(), row.ntris, ref->nverts(), row.nverts, rel,
        match ? "ok" : (row.peer == Peer::ContourGrid ? "FAILED" : "differs (not the reference)"));
    if (row.peer == Peer::ContourGrid) ok &= match;
  }
  if (!ok && r.exit_code == EXIT_OK) r.exit_code = EXIT_VERIFY;
}

/* ---- Phase: --smp-check ----------------------------------------------- */

void smp_check(Run &r) {
  if (!r.o.smp_check) return;
  if (!r.vgrid) r.vgrid.reset(new VtkGrid(r.mesh));
  size_t nt = 0, bad = 0;
  std::string err;
  AllCpus unbind;
  if (r.vgrid->smp_contour_check(r.o.iso, r.workers, &nt, &bad, &err)) die(EXIT_RUN, err);
  std::printf("smp-check: vtkSMPContourGrid (TBB, %d threads): %zu triangles, %zu (%.2f%%) not in "
              "vtkContourGrid's output\n",
              r.workers, nt, bad, nt ? 100.0 * (double)bad / (double)nt : 0.0);
}

/* ---- Phase: the surface: empty, or written and rendered ---------------- */

void write_outputs(Run &r) {
  const Surface *ref = reference(r);
  if (!ref) return;
  if (ref->ntris() == 0) {
    const auto range =
        std::minmax_element(r.mesh.pts.begin(), r.mesh.pts.end(),
                            [](const Point &a, const Point &b) { return a.s < b.s; });
    std::fprintf(
        stderr,
        "adapt-isosurface: empty surface: no cell crosses iso=%g (scalars of '%s' in [%g, %g])\n",
        r.o.iso, r.mesh.array_name.c_str(), range.first->s, range.second->s);
    if (r.exit_code == EXIT_OK) r.exit_code = EXIT_EMPTY;
    return;
  }
  std::string err;
  if (!r.o.output.empty()) {
    if (write_vtp(*ref, r.o.output, &err)) die(EXIT_RUN, err);
    if (!r.o.quiet) std::printf("surface written to %s\n", r.o.output.c_str());
  }
  if (!r.o.png.empty()) {
    char title[160];
    std::snprintf(title, sizeof title, "iso=%g: %zu triangles, %zu vertices", r.o.iso, ref->ntris(),
                  ref->nverts());
    render(r.o, *ref, title);
    if (!r.o.quiet) std::printf("rendering written to %s\n", r.o.png.c_str());
  }
}

} // namespace

int main(int argc, char **argv) {
  Run r;
  r.o = parse_options(argc, argv);
  if (!r.o.render.empty()) return render_file(r.o);
  load_mesh(r);
  init_counters(r);
  init_runtime(r);
  set_up_rows(r);
  run_rows(r);
  print_table(r);
  verify(r);
  smp_check(r);
  write_outputs(r);
  perfctr_destroy(&r.pc);
  adapt_finalize();
  return r.exit_code;
}
