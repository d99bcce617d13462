/* adapt-isosurface: isosurfaces of tetrahedral meshes, sequential and
 * adaptive (libadapt window algorithms), against VTK's filters, with PAPI
 * cache counters. See docs/isosurface.md. main() is the list of phases:
 * parse the options (cli_options.h), load or generate the mesh, start the
 * counters and the runtime, set up the rows (our modes, VTK's peers), run
 * them, print the table (and the CSV), verify, the SMP diagnostic, write
 * the surface and render it (cli_run.h); or hand over to the distributed
 * run (dist.h). */
#include "cli_options.h"
#include "cli_run.h"
#include "dist.h"
#include "pieces.h"

#include <adapt/adapt.h>

#include <pthread.h>
#include <sched.h>

namespace iso {
namespace cli {

/* Read by main() before libadapt starts (cli_run.h). */
cpu_set_t start_cpus;
bool start_cpus_ok = false;

} // namespace cli
} // namespace iso

using namespace iso;
using namespace iso::cli;

int main(int argc, char **argv) {
  start_cpus_ok = pthread_getaffinity_np(pthread_self(), sizeof start_cpus, &start_cpus) == 0;
  Run r;
  r.o = parse_options(argc, argv);
  if (r.o.render.empty() && (dist_under_mpirun() || has_extension(r.o.output, ".pvtp")))
    return dist_run(dist_options(r.o));
  if (!r.o.render.empty()) return render_file(r.o);
  load_mesh(r);
  if (!r.o.mesh_only) init_counters(r);
  init_runtime(r);
  renumber(r);
  if (r.o.mesh_only) { /* --save-mesh without --iso: nothing to extract */
    adapt_finalize();
    return EXIT_OK;
  }
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
