/* apps/isosurface/cli: dist.h in a build without MPI (module.mk picks this file
 * when mpicxx is not found or ISO_NO_MPI=1): the serial app works as
 * before, reads .pvtu files as one mesh and writes them in pieces; a
 * distributed run says what is missing. */
#include "dist.h"

#include <cstdio>

namespace iso {

bool dist_available() { return false; }

int dist_run(const DistOptions &o) {
  std::fprintf(stderr,
               "adapt-isosurface: the distributed run (mpirun, or --output %s) needs MPI, and this "
               "binary was built without it (install libopenmpi-dev: make deps, then rebuild)\n",
               o.output.empty() ? "FILE.pvtp" : o.output.c_str());
  return 5;
}

} // namespace iso
