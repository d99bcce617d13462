/* apps/isosurface/cli: adapt-isosurface's serial run: the state its phases
 * build and read (Run, a Row per mode of ours or VTK peer) and the phases,
 * in the order of main(): cli_phases.cpp (the mesh, the counters, the
 * runtime, --reorder, the rows, --predict-misses, the runs,
 * --positions), cli_report.cpp (the table, the CSV, --verify),
 * cli_outputs.cpp (--smp-check, the surface written and rendered,
 * --render). */
#ifndef APPS_ISOSURFACE_CLI_CLI_RUN_H
#define APPS_ISOSURFACE_CLI_CLI_RUN_H

#include "cli_options.h"
#include "vtk_bridge.h"

#include <adapt/iso.hpp>

extern "C" {
#include "perfcounters.h"
}

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace iso {
namespace cli {

/* ---- What the phases share -------------------------------------------- */

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
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
  double predicted = NAN;         /* --predict-misses: modelled last-level misses */
  std::vector<size_t> value_tris; /* several isovalues: each one's triangles */
};

/* The state the phases build and read, in the order of main(). */
struct Run {
  Options o;
  Mesh mesh;
  BlockTree blocks;                  /* a .vtm input's, for --output FILE.vtm */
  Numbering loc;                     /* of the mesh as loaded (after --point-order) */
  Numbering extracted;               /* of the mesh as extracted (after --reorder): the CSV's */
  Reorder reordered = Reorder::None; /* the curve applied by --reorder */
  double reorder_secs = 0;
  perfctr pc{};
  int perf_rc = 0; /* perfctr_init's code */
  int nev = 0;     /* events counted */
  int workers = 1;
  AdaptOptions aopt;
  std::vector<Row> rows;
  std::vector<Surface> surfaces;         /* per row: our surface of the first repetition */
  std::vector<Surface> work;             /* per row: the surface the later ones reuse */
  std::unique_ptr<VtkGrid> vgrid;        /* for the peers, the verification, --smp-check */
  std::vector<adapt::iso::surface> libs; /* per row, several isovalues: the library's surface */
  int exit_code = EXIT_OK;
};

/* The surface the others are checked against: the first of our rows run. */
inline const Surface *reference(const Run &r) {
  for (size_t i = 0; i < r.rows.size(); i++)
    if (r.rows[i].ours && !r.rows[i].skipped) return &r.surfaces[i];
  return nullptr;
}

/* The CPUs this process was started with (taskset, numactl, a batch
 * system's binding), read by main before libadapt starts. */
extern cpu_set_t start_cpus;
extern bool start_cpus_ok;

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

/* ---- The phases ------------------------------------------------------- */

/* cli_phases.cpp: the mesh of --input or --generate (and --point-order),
 * described; PAPI's counters (before the runtime: its threads inherit
 * them); the runtime and the adaptive modes' options; --reorder (timed
 * apart) and --save-mesh; the rows; their predicted misses; the runs,
 * repetitions outermost (the rows alternate); --positions. */
void load_mesh(Run &r);
void init_counters(Run &r);
void init_runtime(Run &r);
void renumber(Run &r);
void set_up_rows(Run &r);
void predict(Run &r);
void run_rows(Run &r);
void record_all_positions(Run &r);

/* cli_library.cpp: extractions through <adapt/iso.hpp>. Several isovalues:
 * row i's extraction of them all into r.libs[i] (reused unless
 * --fresh-output), its policy the row's mode, window and grain; copied
 * into *s untimed, each value's triangles into the row. The surface file
 * with arrays: the mesh's arrays interpolated, its cell arrays passed, the
 * scalars (the isovalue of each point, named as the input's) first.
 * 0, or the library's errors (message in *err). */
int extract_values(Run &r, size_t i, std::string *err);
void copy_values(Run &r, size_t i, Surface *s);
int write_surface_arrays(const Run &r, std::string *err);
/* The isovalues as the command line gives them back: "0.1,0.2". */
std::string iso_text(const Options &o);

/* cli_report.cpp: the table (and --csv); --verify, which sets r.exit_code
 * when a check fails. */
void print_table(const Run &r);
void verify(Run &r);

/* cli_outputs.cpp: --smp-check; the surface: empty (r.exit_code), or
 * written (--output) and rendered (--png); --render FILE.vtp alone. */
void smp_check(Run &r);
void write_outputs(Run &r);
int render_file(const Options &o);

} // namespace cli
} // namespace iso

#endif /* APPS_ISOSURFACE_CLI_CLI_RUN_H */
