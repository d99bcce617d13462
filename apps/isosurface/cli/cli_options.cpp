/* apps/isosurface/cli: adapt-isosurface's command line (see cli_options.h). */
#include "cli_options.h"
#include "file_checks.h"
#include "names.h"
#include "pieces.h"
#include "vtk_bridge.h"

#include <adapt/adapt.h>
#include <adapt/algorithms.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <sstream>

namespace iso {
namespace cli {

[[noreturn]] void die(int code, const std::string &msg) {
  std::fprintf(stderr, "adapt-isosurface: %s\n", msg.c_str());
  std::exit(code);
}

namespace {

const char usage[] =
    "usage: adapt-isosurface [options]\n"
    "Input (one of):\n"
    "  --input FILE          .vtu/.vtk unstructured grid of tetrahedra, image volume\n"
    "                        (.vti .pvti .mha .mhd .nii .nii.gz, legacy .vtk structured\n"
    "                        points), structured or rectilinear grid (.vts .vtr: split\n"
    "                        into tetrahedra), or multiblock (.vtm: its blocks, one surface;\n"
    "                        a surface per block with --output FILE.vtm)\n"
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
    "  --array NAME          scalars to contour (default: the active point scalars); a cell\n"
    "                        array is converted to point data as vtkCellDataToPointData does\n"
    "  --cell-scalars        contour the cell array --array (default: the active cell\n"
    "                        scalars), converted to point data as above\n"
    "  --arrays all|none|NAME[,NAME...]  point arrays interpolated onto the surface and cell\n"
    "                        arrays passed to its triangles, in --output's file with the\n"
    "                        scalars (default: all when --output is given, else none)\n"
    "  --tetrahedralize      split linear 3D cells into tetrahedra (else they are refused;\n"
    "                        2D cells are always refused)\n"
    "Extraction:\n"
    "  --iso VALUE           isovalue (default 0 for waves and gyroid, 0.6 for sphere, else\n"
    "                        required, but by --save-mesh alone: the mesh is written, no\n"
    "                        surface extracted)\n"
    "  --iso V1,V2,...       several isovalues, the surfaces appended in that order\n"
    "  --iso A:B:N           N values evenly from A to B inclusive (vtkContourFilter's\n"
    "                        GenerateValues(N, A, B))\n"
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
    "                        adaptive mode, as CSV (apps/isosurface/tools/trace_plot.py draws it)\n"
    "  --output FILE.vtp     write the surface (vtkXMLPolyDataWriter; FILE.vtk: legacy\n"
    "                        vtkPolyDataWriter, binary; FILE.pvtp: a distributed run;\n"
    "                        FILE.vtm, of a .vtm input: a surface per block, its tree)\n"
    "  --save-mesh FILE.vtu  write the tetrahedral mesh (FILE.vtk: legacy, binary)\n"
    "  --save-mesh FILE.pvtu --pieces N   write it in N pieces (contiguous cell ranges) and\n"
    "                        their index, for a distributed run (docs/distributed.md)\n"
    "  --verify-union FILE.pvtp  --verify, and check the pieces of a distributed run's surface,\n"
    "                        coincident points merged, against vtkContourGrid and as a manifold\n"
    "  --png FILE.png        render the surface (needs X: run under xvfb-run -a)\n"
    "  --render FILE.vtp     only render FILE.vtp (or .pvtp, legacy .vtk) to --png\n"
    "  --color-array NAME    --png: colour the surface by the point array NAME of --color-source\n"
    "                        (default: --input, a .vti or .vtu), probed at its vertices\n"
    "  --color-source FILE   the .vti or .vtu holding --color-array\n"
    "  --title TEXT          --png: the picture's title (default: iso, triangles, vertices)\n"
    "  --quiet               only the table (no warnings, e.g. about missing counters)\n"
    "  --version             the app's, libadapt's and VTK's versions\n"
    "  --help\n"
    "Distributed (under mpirun, or with --output FILE.pvtp): --input FILE.pvtu, each rank\n"
    "  extracting its share of the pieces with --workers P (--point-order, --reorder and\n"
    "  --tetrahedralize apply to each rank's pieces); the .pvtp carries GlobalPointIds;\n"
    "  see docs/distributed.md\n"
    "Options taking a value refuse one that starts with '--' (another option).\n"
    "Output paths (--output, --csv, --save-mesh, --png) are checked before the extraction,\n"
    "their file types too (another extension is refused).\n"
    "Exit status: 0 ok, 1 usage, 2 bad input, 3 empty surface, 4 verification failed, 5 run "
    "error.\n";

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

/* The options stored as given (text) and those set by their presence (on),
 * by their member's name: the flag is --NAME, NAME the member's with '-'
 * for '_' (--arrays: the member arrays_arg). */
struct plain_option {
  const char *name;
  std::string Options::*text;
  bool Options::*on;
};
#define TEXT_OPTION(m)                                                                             \
  plain_option { #m, &Options::m, nullptr }
#define ON_OPTION(m)                                                                               \
  plain_option { #m, nullptr, &Options::m }
const plain_option plain_options[] = {TEXT_OPTION(input),
                                      TEXT_OPTION(array),
                                      TEXT_OPTION(output),
                                      TEXT_OPTION(csv),
                                      TEXT_OPTION(save_mesh),
                                      TEXT_OPTION(png),
                                      TEXT_OPTION(render),
                                      TEXT_OPTION(events),
                                      TEXT_OPTION(positions),
                                      TEXT_OPTION(title),
                                      TEXT_OPTION(color_array),
                                      TEXT_OPTION(color_source),
                                      plain_option{"arrays", &Options::arrays_arg, nullptr},
                                      ON_OPTION(tetrahedralize),
                                      ON_OPTION(cell_scalars),
                                      ON_OPTION(peers),
                                      ON_OPTION(verify),
                                      ON_OPTION(smp_check),
                                      ON_OPTION(predict_misses),
                                      ON_OPTION(fresh_output),
                                      ON_OPTION(quiet)};
#undef TEXT_OPTION
#undef ON_OPTION

/* The plain option of flag, or nullptr. */
const plain_option *find_plain_option(const std::string &flag) {
  for (const plain_option &p : plain_options) {
    std::string f = std::string("--") + p.name;
    std::replace(f.begin(), f.end(), '_', '-');
    if (f == flag) return &p;
  }
  return nullptr;
}

const Named<int> splitter_names[] = {{"local", ADAPT_SPLITTER_LOCAL},
                                     {"distant", ADAPT_SPLITTER_DISTANT},
                                     {"balanced", ADAPT_SPLITTER_BALANCED}};

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

/* An output path's extension (case-insensitive) among exts: else exit,
 * before any work, naming the ones the option takes. */
void check_extension(const char *flag, const std::string &path,
                     std::initializer_list<const char *> exts) {
  std::string list;
  size_t i = 0;
  for (const char *e : exts) {
    if (has_extension(path, e)) return;
    list += i == 0 ? "" : i + 1 == exts.size() ? " or " : ", ";
    list += e;
    i++;
  }
  die(EXIT_USAGE,
      std::string(flag) + ": unknown file type of '" + path + "' (expected " + list + ")");
}

/* --png renders through VTK's X window: exit now (EXIT_RUN, before any
 * work) when no X display opens. */
void need_display() {
  std::string why;
  if (render_check(&why)) die(EXIT_RUN, "--png: " + why);
}

/* --arrays and --cell-scalars, and what several isovalues exclude. */
void complete_arrays(Options &o) {
  const bool file_out = !o.output.empty() && !has_extension(o.output, ".pvtp");
  const std::string &a = o.arrays_arg;
  if (!a.empty() && a != "none" && !file_out)
    die(EXIT_USAGE, "--arrays: the arrays go into the surface file: give --output FILE.vtp (or "
                    ".vtk)");
  o.all_arrays = file_out && (a.empty() || a == "all");
  if (a != "none" && a != "all") {
    std::stringstream ss(a);
    std::string name;
    while (std::getline(ss, name, ','))
      if (name.empty())
        die(EXIT_USAGE, "--arrays: expected all, none or NAME[,NAME...], got '" + a + "'");
      else
        o.arrays.push_back(name);
    if (!a.empty() && a.back() == ',')
      die(EXIT_USAGE, "--arrays: expected all, none or NAME[,NAME...], got '" + a + "'");
  }
  if (o.generate && (o.cell_scalars || !o.arrays.empty()))
    die(EXIT_USAGE, std::string(o.cell_scalars ? "--cell-scalars" : "--arrays NAME") +
                        ": a generated mesh has its scalars only (read a file with --input)");
  if (o.isos.size() > 1)
    for (const auto &x : {std::make_pair(o.predict_misses, "--predict-misses"),
                          std::make_pair(!o.positions.empty(), "--positions"),
                          std::make_pair(o.smp_check, "--smp-check")})
      if (x.first) die(EXIT_USAGE, std::string(x.second) + " takes one isovalue");
}

/* The checks and defaults that depend on several options. */
void complete(Options &o) {
  if (!o.color_array.empty() && o.color_source.empty() && o.input.empty())
    die(EXIT_USAGE, "--color-array needs --color-source FILE (.vti or .vtu) or --input FILE");
  if (!o.png.empty()) check_extension("--png", o.png, {".png"});
  if (!o.render.empty()) check_extension("--render", o.render, {".vtp", ".pvtp", ".vtk"});
  if (!o.render.empty()) {
    if (o.png.empty()) die(EXIT_USAGE, "--render needs --png FILE.png");
    check_writable("--png", o.png);
    need_display();
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
    else if (o.save_mesh.empty())
      die(EXIT_USAGE, "--iso VALUE is required for this input");
    else if (!o.output.empty() || !o.png.empty() || !o.csv.empty() || !o.positions.empty() ||
             o.verify || o.peers || o.smp_check || o.predict_misses)
      die(EXIT_USAGE, "--iso VALUE is required to extract a surface (--save-mesh alone does not "
                      "need it)");
    else
      o.mesh_only = true;
  }
  if (o.isos.empty()) o.isos.push_back(o.iso);
  if (!o.output.empty()) check_extension("--output", o.output, {".vtp", ".vtk", ".pvtp", ".vtm"});
  if (has_extension(o.output, ".vtm") && !has_extension(o.input, ".vtm"))
    die(EXIT_USAGE, "--output " + o.output + ": a surface a block per block needs a .vtm input");
  complete_arrays(o);
  if (!o.save_mesh.empty()) check_extension("--save-mesh", o.save_mesh, {".vtu", ".vtk", ".pvtu"});
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
  if (!o.png.empty()) need_display();
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

/* --iso V, V1,V2,... or A:B:N (GenerateValues(N, A, B): N values evenly
 * from A to B, A alone when N is 1). */
void parse_isos(const char *v, std::vector<double> *isos) {
  const std::string s = v;
  isos->clear();
  if (s.find(':') != std::string::npos) {
    std::stringstream ss(s);
    std::string part[4];
    int n = 0;
    while (n < 4 && std::getline(ss, part[n], ':')) n++;
    double a, b;
    uint64_t count;
    if (n != 3 || !parse_double(part[0].c_str(), &a) || !parse_double(part[1].c_str(), &b) ||
        !parse_u64(part[2].c_str(), &count) || count < 1 || count > ISO_MAX_ISOVALUES ||
        !std::isfinite(a) || !std::isfinite(b))
      die(EXIT_USAGE, "--iso: expected A:B:N, N values from A to B with 1 <= N <= " +
                          std::to_string(ISO_MAX_ISOVALUES) + ", got '" + s + "'");
    for (uint64_t i = 0; i < count; i++)
      isos->push_back(count == 1 ? a : a + (b - a) * (double)i / (double)(count - 1));
    return;
  }
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    double x;
    if (!parse_double(part.c_str(), &x) || !std::isfinite(x))
      die(EXIT_USAGE, "--iso: expected a number or a list V1,V2,..., got '" + s + "'");
    isos->push_back(x);
  }
  if (isos->empty() || s.back() == ',')
    die(EXIT_USAGE, "--iso: expected a number or a list V1,V2,..., got '" + s + "'");
  if (isos->size() > ISO_MAX_ISOVALUES)
    die(EXIT_USAGE, "--iso: at most " + std::to_string(ISO_MAX_ISOVALUES) + " values");
}

/* The options whose value is a number (and --verify-union); false if a is
 * not one of them. */
bool parse_number_option(Options &o, const std::string &a, Args &args) {
  const uint64_t any = UINT64_MAX;
  if (a == "--seed")
    o.seed = need_integer(a, args.value(), 0, any, "a non-negative integer");
  else if (a == "--iso") {
    parse_isos(args.value(), &o.isos);
    o.iso = o.isos[0];
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

} // namespace

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
    } else if (const auto *p = find_plain_option(a)) {
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

AdaptOptions adapt_options(const Options &o) {
  AdaptOptions a;
  a.grain = o.grain;
  a.splitter = o.splitter;
  a.sched = o.sched;
  a.window_size = o.window;
  return a;
}

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
                     {o.predict_misses, "--predict-misses"},
                     {!o.positions.empty(), "--positions"}};
  for (const auto &x : serial_only)
    if (x.set)
      die(EXIT_USAGE, std::string(x.flag) + " is not available in a distributed run (mpirun, or "
                                            "--output FILE.pvtp); see docs/distributed.md");
  if (file_format(o.input) != FileFormat::Pvtu)
    die(EXIT_USAGE, "a distributed run reads --input FILE.pvtu (write one with --save-mesh "
                    "FILE.pvtu --pieces N), got '" +
                        o.input + "'");
  if (!o.output.empty() && !has_extension(o.output, ".pvtp"))
    die(EXIT_USAGE, "a distributed run writes --output FILE.pvtp, got '" + o.output + "'");
  if (o.modes.size() != 1) die(EXIT_USAGE, "a distributed run takes one --mode");
  if (o.isos.size() > 1 || !o.arrays.empty() || o.cell_scalars)
    die(EXIT_USAGE, "a distributed run (mpirun, or --output FILE.pvtp) takes one isovalue and "
                    "point scalars, and writes no arrays (--iso V, no --arrays, no "
                    "--cell-scalars); see docs/distributed.md");
  /* DistOptions' fields in their order (dist.h) */
  return DistOptions{o.input,          o.array,       o.output,         o.csv,  o.iso,
                     o.modes[0],       o.workers,     adapt_options(o), o.reps, o.quiet,
                     o.tetrahedralize, o.point_order, o.reorder,        o.seed};
}

std::string number_text(double v) {
  char buf[32]; /* the longest double, "-2.2250738585072014e-308", is 24 */
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

} // namespace cli
} // namespace iso
