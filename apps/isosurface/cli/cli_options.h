/* apps/isosurface/cli: adapt-isosurface's command line: the options, parsed
 * and checked before anything runs (cli_options.cpp), the exit codes, and
 * the options of a distributed run (dist.h). */
#ifndef APPS_ISOSURFACE_CLI_CLI_OPTIONS_H
#define APPS_ISOSURFACE_CLI_CLI_OPTIONS_H

#include "dist.h"
#include "iso_config.h"
#include "locality.h"
#include "mesh.h"
#include "mt.h"
#include "reorder.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace iso {
namespace cli {

/* Exit codes. */
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_EMPTY = 3, EXIT_VERIFY = 4, EXIT_RUN = 5 };

struct Options {
  std::string input, array, output, csv, save_mesh, png, render, events;
  std::string title, color_array, color_source; /* --png's title and colouring */
  bool generate = false, tetrahedralize = false, peers = false, verify = false, quiet = false;
  bool smp_check = false;
  bool mesh_only = false;    /* --save-mesh of a file without --iso: no extraction */
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
  double iso = 0;           /* the first isovalue */
  std::vector<double> isos; /* --iso: every isovalue, in order (isos[0] == iso) */
  /* --arrays: "all" (the default when a surface file is written, else
   * none), "none" or the names; --cell-scalars. */
  std::string arrays_arg;
  bool all_arrays = false;
  std::vector<std::string> arrays;
  bool cell_scalars = false;
  std::vector<Mode> modes;
  int workers = 0;
  size_t window = 0, grain = 0;
  int splitter = 0;
  int sched = 0;
  int reps = ISO_DEFAULT_REPS;
};

/* "adapt-isosurface: msg" on stderr, then exit with code. */
[[noreturn]] void die(int code, const std::string &msg);

/* The options of the command line, checked: --help and --version print
 * and exit, a bad option or value exits with EXIT_USAGE and a message,
 * and so does an output path that cannot be written. */
Options parse_options(int argc, char **argv);

/* The adaptive options the command line sets (--grain, --splitter,
 * --sched, --window); window_size is 0 when --window is not given (the
 * caller picks the mesh's default). Pure; any thread. */
AdaptOptions adapt_options(const Options &o);

/* The options of a distributed run; exits with EXIT_USAGE if o has one it
 * does not take (serial only) or files of another kind than .pvtu in,
 * .pvtp out. */
DistOptions dist_options(const Options &o);

/* v as the shortest text that strtod reads back as exactly v
 * (std::to_chars): the isovalues in the report, the CSV and the messages,
 * where %g would round a value like 0.8999999999999999 (--iso 0.2:0.9:7) to
 * another. Pure; any thread. */
std::string number_text(double v);

} // namespace cli
} // namespace iso

#endif /* APPS_ISOSURFACE_CLI_CLI_OPTIONS_H */
