/* apps/isosurface/cli: the distributed run (MPI), see docs/distributed.md.
 *
 * Under mpirun (or when the output is a .pvtp) main() hands over to
 * dist_run: each of the R ranks reads its share of the N pieces of a .pvtu
 * (pieces [r*N/R, (r+1)*N/R), as VTK's parallel reader assigns them: empty
 * when R > N), binds itself to its share of the cores of its machine,
 * renumbers its mesh (--point-order, --reorder), extracts with libadapt
 * inside, numbers the surface's vertices globally (a vertex shared by two
 * ranks' pieces gets one id), writes its piece of the .pvtp with those ids
 * as GlobalPointIds (rank 0 the index, through vtkXMLPPolyDataWriter and
 * vtkMPIController), and rank 0 prints the global figures (triangles,
 * globally merged vertices, area), the per-phase time table (per-rank
 * maximum, load imbalance), the memory and the pieces written.
 * Errors of any rank (a missing or corrupt piece, arrays that differ) are
 * agreed on by a collective after each phase: every rank prints the first
 * failing rank's message and the job ends with its exit code (no hang).
 *
 * No MPI here: dist.cpp is built when MPI is found (module.mk), else
 * dist_nompi.cpp, whose dist_run explains that MPI is missing. */
#ifndef APPS_ISOSURFACE_CLI_DIST_H
#define APPS_ISOSURFACE_CLI_DIST_H

#include "mt.h"
#include "reorder.h"

#include <cstdlib>
#include <initializer_list>
#include <string>

namespace iso {

/* The options of a distributed run (an aggregate: dist_options, in
 * cli_options.cpp, lists them in this order). */
struct DistOptions {
  std::string input;  /* the .pvtu */
  std::string array;  /* "" the index's active scalars */
  std::string output; /* .pvtp, "" none */
  std::string csv;    /* per-rank figures (rank 0 writes it), "" none */
  double iso = 0;
  Mode mode = Mode::Seq;
  int workers = 0; /* per rank; 0: the PUs of the rank's share of its machine */
  AdaptOptions aopt;
  int reps = 1;
  bool quiet = false;
  bool tetrahedralize = false;               /* split the pieces' linear 3D cells */
  PointOrder point_order = PointOrder::Keep; /* each rank's mesh, after the read */
  Reorder reorder = Reorder::Auto;           /* each rank's mesh, on its runtime */
  uint64_t seed = 1;                         /* of --point-order random */
};

/* True when this process was started by mpirun/mpiexec (OpenMPI's, MPICH's
 * or a PMI launcher's environment). The same with MPI or without. */
inline bool dist_under_mpirun() {
  for (const char *v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

/* True when this binary was built with MPI. */
bool dist_available();

/* The distributed run; returns the exit status (main's codes: 0 ok, 2 bad
 * input, 3 empty surface, 5 run error), the same on every rank. Calls
 * MPI_Init_thread and MPI_Finalize. */
int dist_run(const DistOptions &o);

} // namespace iso

#endif /* APPS_ISOSURFACE_CLI_DIST_H */
