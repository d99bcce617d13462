/* adapt-isosurface: isosurfaces of tetrahedral meshes, sequential and
 * adaptive (libadapt window algorithms), against VTK's filters, with PAPI
 * cache counters. See docs/isosurface.md. main() is the list of phases:
 * parse the options, load or generate the mesh, start the counters and the
 * runtime, set up the rows (our modes, VTK's peers), run them, print the
 * table (and the CSV), verify, the SMP diagnostic, write the surface and
 * render it. */
#include "iso_config.h"
#include "locality.h"
#include "mesh.h"
#include "mt.h"
#include "names.h"
#include "reorder.h"
#include "vtk_bridge.h"
#include "dist.h"
#include "pieces.h"

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

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
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
    "    --field sphere|waves|flat|gyroid   built-in scalar field (default waves; gyroid:\n"
    "                        period 12 cells, a surface crossing about a third of the cells)\n"
    "    --split 5|6         tetrahedra per hexahedron (default 5)\n"
    "    --order lex|morton|hilbert|random   cell order (default lex; also for images)\n"
    "    --seed N            seed of the random orders (default 1)\n"
    "  --point-order keep|first-use|random  point numbering after loading (default keep;\n"
    "                        random: shuffled with --seed, a poor numbering on purpose)\n"
    "  --reorder none|morton|hilbert|auto   renumber the cells along a curve of their\n"
    "                        centroids, the points by first use (default auto: hilbert when\n"
    "                        the numbering is poor, see docs/isosurface.md); timed apart\n"
    "  --array NAME          point scalars to contour (default: the active scalars)\n"
    "  --tetrahedralize      split linear 3D cells into tetrahedra (else they are refused;\n"
    "                        2D cells are always refused)\n"
    "Extraction:\n"
    "  --iso VALUE           isovalue (default 0 for waves and gyroid, 0.6 for sphere, else\n"
    "                        required)\n"
    "  --mode M[,M...]       seq|nowin|static|sliding|all (default seq)\n"
    "  --workers P           libadapt workers (default: env ADAPT_WORKERS, else the PUs\n"
    "                        this process may run on, e.g. under taskset; at most\n"
    "                        libadapt's limit, named if exceeded)\n"
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
    "  --fresh-output        every repetition extracts into a new surface (default: the\n"
    "                        first does, the others reuse the row's previous surface, whose\n"
    "                        pages are already faulted in; the first's time is printed apart)\n"
    "  --events LIST|none    PAPI events, comma-separated (default: env ADAPT_PAPI_EVENTS, else\n"
    "                        "
    "PAPI_TOT_CYC,PAPI_L2_DCM,ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL)\n"
    "  --csv FILE            write the table as CSV\n"
    "  --predict-misses      model each mode's last-level cache misses (reuse distances of\n"
    "                        the cell phase, docs/locality.md): table column predLL, CSV\n"
    "                        columns predicted_ll_misses, predicted_ll_rel\n"
    "  --cache-bytes B       cache modelled by --predict-misses (default: the shared cache\n"
    "                        hwloc reports)\n"
    "  --predict-kernel K    classified (the extraction's reads, default) or scalars (the\n"
    "                        paper's kernel: each cell reads its four points' scalars)\n"
    "  --positions FILE      record which worker ran which cells when, one untimed run per\n"
    "                        adaptive mode, as CSV (apps/isosurface/trace_plot.py draws it)\n"
    "  --output FILE.vtp     write the surface (vtkXMLPolyDataWriter)\n"
    "  --save-mesh FILE.vtu  write the tetrahedral mesh\n"
    "  --save-mesh FILE.pvtu --pieces N   write it in N pieces (contiguous cell ranges) and\n"
    "                        their index, for a distributed run (docs/distributed.md)\n"
    "  --verify-union FILE.pvtp  --verify, and check the pieces of a distributed run's surface,\n"
    "                        coincident points merged, against vtkContourGrid and as a manifold\n"
    "  --png FILE.png        render the surface (needs X: run under xvfb-run -a)\n"
    "  --render FILE.vtp     only render FILE.vtp to --png, nothing else\n"
    "  --color-array NAME    --png: colour the surface by the point array NAME of --color-source\n"
    "                        (default: --input, a .vti or .vtu), probed at its vertices\n"
    "  --color-source FILE   the .vti or .vtu holding --color-array\n"
    "  --title TEXT          --png: the picture's title (default: iso, triangles, vertices)\n"
    "  --quiet               only the table (no warnings, e.g. about missing counters)\n"
    "  --version             the app's, libadapt's and VTK's versions\n"
    "  --help\n"
    "Distributed (under mpirun, or with --output FILE.pvtp): --input FILE.pvtu, each rank\n"
    "  extracting its share of the pieces with --workers P; see docs/distributed.md\n"
    "Options taking a value refuse one that starts with '--' (another option).\n"
    "Output paths (--output, --csv, --save-mesh, --png) are checked before the extraction.\n"
    "Exit status: 0 ok, 1 usage, 2 bad input, 3 empty surface, 4 verification failed, 5 run "
    "error.\n";

struct Options {
  std::string input, array, output, csv, save_mesh, png, render, events;
  std::string title, color_array, color_source; /* --png's title and colouring */
  bool generate = false, tetrahedralize = false, peers = false, verify = false, quiet = false;
  bool smp_check = false;
  bool fresh_output = false; /* --fresh-output: no repetition reuses a surface */
  int pieces = 0;            /* --pieces N: --save-mesh FILE.pvtu in N pieces */
  std::string verify_union;  /* --verify-union FILE.pvtp */
  bool predict_misses = false;
  uint64_t cache_bytes = 0;           /* --cache-bytes, 0: the shared cache */
  Kernel kernel = Kernel::Classified; /* --predict-kernel */
  std::string positions;
  int64_t dims[3] = {0, 0, 0};
  Field field = Field::Waves;
  Split split = Split::Five;
  Order order = Order::Lex;
  uint64_t seed = 1;
  PointOrder point_order = PointOrder::Keep;
  Reorder reorder = Reorder::Auto;
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

/* The options stored as given (text) and those set by their presence (on). */
const struct {
  const char *flag;
  std::string Options::*text;
  bool Options::*on;
} plain_options[] = {{"--input", &Options::input, nullptr},
                     {"--array", &Options::array, nullptr},
                     {"--output", &Options::output, nullptr},
                     {"--csv", &Options::csv, nullptr},
                     {"--save-mesh", &Options::save_mesh, nullptr},
                     {"--png", &Options::png, nullptr},
                     {"--render", &Options::render, nullptr},
                     {"--events", &Options::events, nullptr},
                     {"--positions", &Options::positions, nullptr},
                     {"--title", &Options::title, nullptr},
                     {"--color-array", &Options::color_array, nullptr},
                     {"--color-source", &Options::color_source, nullptr},
                     {"--tetrahedralize", nullptr, &Options::tetrahedralize},
                     {"--peers", nullptr, &Options::peers},
                     {"--verify", nullptr, &Options::verify},
                     {"--smp-check", nullptr, &Options::smp_check},
                     {"--predict-misses", nullptr, &Options::predict_misses},
                     {"--fresh-output", nullptr, &Options::fresh_output},
                     {"--quiet", nullptr, &Options::quiet}};

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
  if (!o.color_array.empty() && o.color_source.empty() && o.input.empty())
    die(EXIT_USAGE, "--color-array needs --color-source FILE (.vti or .vtu) or --input FILE");
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
    if (o.generate && (o.field == Field::Waves || o.field == Field::Gyroid))
      o.iso = 0.0;
    else if (o.generate && o.field == Field::Sphere)
      o.iso = 0.6;
    else
      die(EXIT_USAGE, "--iso VALUE is required for this input");
  }
  const struct {
    const char *flag;
    const std::string &path;
  } outputs[] = {{"--output", o.output},
                 {"--csv", o.csv},
                 {"--save-mesh", o.save_mesh},
                 {"--png", o.png},
                 {"--positions", o.positions}};
  for (const auto &out : outputs)
    if (!out.path.empty()) check_writable(out.flag, out.path);
}

/* The command line, an argument at a time. */
struct Args {
  int argc;
  char **argv;
  int i; /* the option being parsed */
  /* The value of option argv[i]: the next argument, unless it is missing or
   * another option ("--array --iso 150" must not name the array "--iso"). */
  const char *value() {
    if (i + 1 >= argc) die(EXIT_USAGE, std::string(argv[i]) + " needs a value (see --help)");
    if (std::strncmp(argv[i + 1], "--", 2) == 0)
      die(EXIT_USAGE, std::string(argv[i]) + " needs a value, got the option '" + argv[i + 1] +
                          "' (see --help)");
    return argv[++i];
  }
};

/* The options whose value is a name (or a list, or dimensions); false if a
 * is not one of them. */
bool parse_named_option(Options &o, const std::string &a, Args &args) {
  if (a == "--generate") {
    parse_dims(args.value(), o.dims);
    o.generate = true;
  } else if (a == "--field")
    need_named(parse_field, args.value(), &o.field, "--field: unknown field '");
  else if (a == "--split")
    need_named(parse_split, args.value(), &o.split, "--split: expected 5 or 6, got '");
  else if (a == "--order")
    need_named(parse_order, args.value(), &o.order, "--order: unknown order '");
  else if (a == "--point-order")
    need_named(parse_point_order, args.value(), &o.point_order, "--point-order: unknown order '");
  else if (a == "--reorder")
    need_named(parse_reorder, args.value(), &o.reorder,
               "--reorder: expected none, morton, hilbert or auto, got '");
  else if (a == "--mode")
    parse_modes(args.value(), &o.modes);
  else if (a == "--predict-kernel")
    need_named(parse_kernel, args.value(), &o.kernel,
               "--predict-kernel: expected classified or scalars, got '");
  else if (a == "--splitter") {
    if (parse_named(splitter_names, args.value(), &o.splitter))
      die(EXIT_USAGE, "--splitter: expected local, distant or balanced");
  } else if (a == "--sched") {
    if (std::string(args.value()) != "adaptive")
      die(EXIT_USAGE, "--sched: expected adaptive (the extraction is adapt_transform_var, whose "
                      "output is merged in sequence order: only the adaptive scheduler does that)");
    o.sched = ADAPT_SCHED_ADAPTIVE;
  } else
    return false;
  return true;
}

/* The options whose value is a number (and --verify-union); false if a is
 * not one of them. */
bool parse_number_option(Options &o, const std::string &a, Args &args) {
  const uint64_t any = UINT64_MAX;
  if (a == "--seed")
    o.seed = need_integer(a, args.value(), 0, any, "a non-negative integer");
  else if (a == "--iso") {
    if (!parse_double(args.value(), &o.iso)) die(EXIT_USAGE, "--iso: expected a number");
    o.iso_set = true;
  } else if (a == "--workers")
    o.workers = (int)need_integer(a, args.value(), 1, INT_MAX, "a positive integer");
  else if (a == "--cache-bytes")
    o.cache_bytes = need_integer(a, args.value(), 64, any, "a number of bytes >= 64");
  else if (a == "--window")
    o.window = (size_t)need_integer(a, args.value(), 1, any, "a positive integer");
  else if (a == "--grain")
    o.grain = (size_t)need_integer(a, args.value(), 1, any, "a positive integer");
  else if (a == "--reps")
    o.reps = (int)need_integer(a, args.value(), 1, 1000, "1..1000");
  else if (a == "--pieces")
    o.pieces = (int)need_integer(a, args.value(), 1, 1u << 20, "1..2^20");
  else if (a == "--verify-union") {
    o.verify_union = args.value();
    o.verify = true;
  } else
    return false;
  return true;
}

Options parse_options(int argc, char **argv) {
  Options o;
  Args args{argc, argv, 1};
  for (; args.i < argc; args.i++) {
    const std::string a = argv[args.i];
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      std::exit(EXIT_OK);
    } else if (a == "--version") {
      std::printf("adapt-isosurface %d.%d.%d (libadapt %s at run time, VTK %s)\n",
                  ADAPT_VERSION_MAJOR, ADAPT_VERSION_MINOR, ADAPT_VERSION_PATCH,
                  adapt_version_string(), vtk_version().c_str());
      std::exit(EXIT_OK);
    } else if (const auto *p = find_option(plain_options, a)) {
      if (p->text)
        o.*(p->text) = args.value();
      else
        o.*(p->on) = true;
    } else if (!parse_named_option(o, a, args) && !parse_number_option(o, a, args))
      die(EXIT_USAGE, "unknown option '" + a + "' (see --help)");
  }
  complete(o);
  if (o.pieces && !has_extension(o.save_mesh, ".pvtu"))
    die(EXIT_USAGE, "--pieces N needs --save-mesh FILE.pvtu");
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
  /* Ours, first run: peak RSS during the extraction above the RSS just
   * before it (NAN: /proc unavailable), and the output surface, MiB. */
  double rss_extra_mib = NAN, out_mib = NAN;
  double kept_mib = NAN;     /* transient memory kept in the reused surface after its last run */
  double first_secs = NAN;   /* ours: the first run, into a fresh surface */
  int reuse_checked = 0;     /* --verify: runs into a reused surface checked, */
  bool reuse_failed = false; /* and whether one differed from the first run's */
  double area = 0;
  size_t window = 0;
  double predicted = NAN; /* --predict-misses: modelled last-level misses */
};

/* The state the phases build and read, in the order of main(). */
struct Run {
  Options o;
  Mesh mesh;
  Numbering loc;                     /* of the mesh as loaded (after --point-order) */
  Reorder reordered = Reorder::None; /* the curve applied by --reorder */
  double reorder_secs = 0;
  perfctr pc{};
  int perf_rc = 0; /* perfctr_init's code */
  int nev = 0;     /* events counted */
  int workers = 1;
  AdaptOptions aopt;
  std::vector<Row> rows;
  std::vector<Surface> surfaces;  /* per row: our surface of the first repetition */
  std::vector<Surface> work;      /* per row: the surface the later ones reuse */
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

/* The CPUs this process was started with (taskset, numactl, a batch
 * system's binding), read by main before libadapt starts. */
cpu_set_t start_cpus;
bool start_cpus_ok = false;

/* libadapt binds the calling thread (worker 0) to one PU of the CPUs it was
 * started with. TBB sizes its pool from the affinity mask it sees at its
 * first use and the STDThread pool's threads inherit it: let the VTK peers
 * run with all of those CPUs, then restore the binding. */
class StartCpus {
public:
  StartCpus() {
    ok_ = start_cpus_ok && pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) == 0;
    if (ok_) pthread_setaffinity_np(pthread_self(), sizeof start_cpus, &start_cpus);
  }
  ~StartCpus() {
    if (ok_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
  }

private:
  cpu_set_t saved_;
  bool ok_ = false;
};

/* Render surface s to o.png, titled. */
void render(const Options &o, const Surface &s, const char *title) {
  std::string err;
  const std::string t = o.title.empty() ? title : o.title;
  const int rc = o.color_array.empty()
                     ? render_png(s, o.png, ISO_PNG_WIDTH, ISO_PNG_HEIGHT, t, &err)
                     : render_png_colored(s, o.png, ISO_PNG_WIDTH, ISO_PNG_HEIGHT, t,
                                          o.color_source.empty() ? o.input : o.color_source,
                                          o.color_array, &err);
  if (rc) die(rc == -EIO ? EXIT_RUN : EXIT_INPUT, err);
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
  const int rc = has_extension(o.input, ".pvtu") ? read_pvtu(o.input, o.array, mesh, &err)
                                                 : read_mesh(o.input, ro, mesh, &err);
  if (rc) die(rc == -ENOMEM ? EXIT_RUN : EXIT_INPUT, err);
  return o.input + " (array " + mesh->array_name + ")";
}

void load_mesh(Run &r) {
  if (!r.o.quiet) {
    std::printf("mesh: %s%s...\n", r.o.generate ? "generating" : "reading ", r.o.input.c_str());
    std::fflush(stdout);
  }
  const double t0 = now();
  const std::string source = r.o.generate ? generate_mesh(r.o, &r.mesh) : read_input(r.o, &r.mesh);
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
                r.loc.pair_p90, reorder_needed(r.loc, m.pts.size()) ? ": poor" : "");
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
  r.aopt.grain = r.o.grain;
  r.aopt.splitter = r.o.splitter;
  r.aopt.sched = r.o.sched;
  r.aopt.window_size = r.o.window ? r.o.window : default_window(m, shared);
}

/* ---- Phase: --reorder (on the runtime, timed apart), then --save-mesh -- */

void renumber(Run &r) {
  Reorder curve = r.o.reorder;
  if (curve == Reorder::Auto)
    curve = reorder_needed(r.loc, r.mesh.pts.size()) ? Reorder::Hilbert : Reorder::None;
  std::string err;
  if (curve != Reorder::None) {
    ReorderTiming tm;
    const double t0 = now();
    if (reorder_cells(&r.mesh, curve, &tm, &err)) die(EXIT_RUN, "--reorder: " + err);
    r.reorder_secs = now() - t0;
    r.reordered = curve;
    if (!r.o.quiet) {
      const Numbering after = measure_numbering(r.mesh);
      std::printf("reorder: %s%s, %.1f ms on %d worker(s) (keys %.1f, sort %.1f, cells %.1f, "
                  "points %.1f); numbering: cell spread %.3g, pair spread %.3g (p90 %.3g)\n",
                  reorder_name(curve), r.o.reorder == Reorder::Auto ? " (auto)" : "",
                  1e3 * r.reorder_secs, r.workers, 1e3 * tm.keys, 1e3 * tm.sort, 1e3 * tm.apply,
                  1e3 * tm.points, after.cell_spread, after.pair_spread, after.pair_p90);
    }
  } else if (!r.o.quiet)
    std::printf("reorder: none%s\n",
                r.o.reorder == Reorder::Auto ? " (auto: the numbering is not poor)" : "");
  if (!r.o.save_mesh.empty()) {
    const bool pvtu = has_extension(r.o.save_mesh, ".pvtu");
    if (pvtu ? write_pieces(r.mesh, r.o.save_mesh, std::max(1, r.o.pieces), &err)
             : write_vtu(r.mesh, r.o.save_mesh, &err))
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
    if (int rc = append_positions_csv(r.o.positions, row.mode, ev))
      die(EXIT_RUN, "--positions: cannot write '" + r.o.positions + "': " + std::strerror(-rc));
  }
  if (!r.o.quiet) std::printf("positions written to %s\n", r.o.positions.c_str());
}

/* ---- Phase: run the rows ---------------------------------------------- */

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
  const long rss0 = rep == 0 && reset_peak_rss() ? status_kib("VmRSS:") : -1;
  perfctr_start(&r.pc);
  ISO_SIM_START();
  const double t0 = now();
  int rc = extract(r.mesh, r.o.iso, row.mode, r.aopt, &s, &tm, &err);
  const double t1 = now();
  ISO_SIM_STOP();
  perfctr_stop(&r.pc, vals);
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
  if (&s == &r.work[i]) row.kept_mib = (double)s.kept.bytes() / (1 << 20);
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
  std::fprintf(csv, ",predicted_ll_misses,predicted_ll_rel,best_s,best_speedup\n");
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
  std::fprintf(csv, ",%.6g,%.6g,%s,%.9g", r.loc.cell_spread, r.loc.pair_spread,
               reorder_name(r.reordered), r.reorder_secs);
  for (int e = 0; e < r.nev; e++) {
    const double v = median(row.counts[(size_t)e]);
    std::fprintf(csv, ",%s,%s", csv_num(v, "%.0f").c_str(),
                 csv_num(seq ? v / median(seq->counts[(size_t)e]) : NAN, "%.6g").c_str());
  }
  std::fprintf(csv, ",%s,%s", csv_num(row.predicted, "%.0f").c_str(),
               csv_num(seq ? row.predicted / seq->predicted : NAN, "%.6g").c_str());
  std::fprintf(csv, ",%s,%s\n", csv_num(fastest(row.secs), "%.9g").c_str(),
               csv_num(seq ? fastest(seq->secs) / fastest(row.secs) : NAN, "%.6g").c_str());
}

void print_table(const Run &r) {
  const Row *seq = nullptr;
  for (const Row &row : r.rows)
    if (row.ours && row.mode == Mode::Seq && !row.skipped) seq = &row;
  const double tseq = seq ? median(seq->secs) : NAN;
  std::printf("\nisosurface at iso=%g, %d worker(s), %zu tetrahedra, median of %d run(s); best: "
              "the fastest run\n",
              r.o.iso, r.workers, r.mesh.tets.size(), r.o.reps);
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

/* ---- Phase: --smp-check ----------------------------------------------- */

void smp_check(Run &r) {
  if (!r.o.smp_check) return;
  if (!r.vgrid) r.vgrid.reset(new VtkGrid(r.mesh));
  size_t nt = 0, bad = 0;
  std::string err;
  StartCpus unbind;
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
    const auto range = std::minmax_element(r.mesh.scalars.begin(), r.mesh.scalars.end());
    std::fprintf(
        stderr,
        "adapt-isosurface: empty surface: no cell crosses iso=%g (scalars of '%s' in [%g, %g])\n",
        r.o.iso, r.mesh.array_name.c_str(), *range.first, *range.second);
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

/* ---- The distributed run (dist.h): the options it takes ------------------ */

DistOptions dist_options(const Options &o) {
  const struct {
    bool set;
    const char *flag;
  } serial_only[] = {{o.generate, "--generate"},
                     {o.peers, "--peers"},
                     {o.verify, "--verify"},
                     {o.smp_check, "--smp-check"},
                     {!o.png.empty(), "--png"},
                     {!o.save_mesh.empty(), "--save-mesh"},
                     {o.tetrahedralize, "--tetrahedralize"},
                     {o.predict_misses, "--predict-misses"},
                     {!o.positions.empty(), "--positions"}};
  for (const auto &x : serial_only)
    if (x.set)
      die(EXIT_USAGE, std::string(x.flag) + " is not available in a distributed run (mpirun, or "
                                            "--output FILE.pvtp); see docs/distributed.md");
  if (!has_extension(o.input, ".pvtu"))
    die(EXIT_USAGE, "a distributed run reads --input FILE.pvtu (write one with --save-mesh "
                    "FILE.pvtu --pieces N), got '" +
                        o.input + "'");
  if (!o.output.empty() && !has_extension(o.output, ".pvtp"))
    die(EXIT_USAGE, "a distributed run writes --output FILE.pvtp, got '" + o.output + "'");
  if (o.modes.size() != 1) die(EXIT_USAGE, "a distributed run takes one --mode");
  DistOptions d;
  d.input = o.input;
  d.array = o.array;
  d.output = o.output;
  d.csv = o.csv;
  d.iso = o.iso;
  d.mode = o.modes[0];
  d.workers = o.workers;
  d.aopt.grain = o.grain;
  d.aopt.window_size = o.window;
  d.aopt.splitter = o.splitter;
  d.aopt.sched = o.sched;
  d.reps = o.reps;
  d.quiet = o.quiet;
  return d;
}

} // namespace

int main(int argc, char **argv) {
  start_cpus_ok = pthread_getaffinity_np(pthread_self(), sizeof start_cpus, &start_cpus) == 0;
  Run r;
  r.o = parse_options(argc, argv);
  if (r.o.render.empty() && (dist_under_mpirun() || has_extension(r.o.output, ".pvtp")))
    return dist_run(dist_options(r.o));
  if (!r.o.render.empty()) return render_file(r.o);
  load_mesh(r);
  init_counters(r);
  init_runtime(r);
  renumber(r);
  set_up_rows(r);
  predict(r);
  run_rows(r);
  print_table(r);
  record_all_positions(r);
  verify(r);
  smp_check(r);
  write_outputs(r);
  perfctr_destroy(&r.pc);
  adapt_finalize();
  return r.exit_code;
}
