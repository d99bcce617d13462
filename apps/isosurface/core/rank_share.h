/* A rank's share of its machine's CPUs, the rule of the distributed run:
 * the ranks of one machine split its cores in contiguous shares, one per
 * rank (one core each, shared round robin, when there are more ranks than
 * cores). Used by adapt-isosurface under mpirun (apps/isosurface/cli/dist.cpp:
 * it binds each rank to its share, and libadapt then starts one worker per
 * PU of it) and by the VTK filter and its ParaView plugin
 * (apps/isosurface/vtk/filter: the workers of a rank launched by mpirun,
 * unbound, one per PU of its share).
 * Header-only: the VTK filter's CMake build reaches it as the CLI does. */
#ifndef APPS_ISOSURFACE_CORE_RANK_SHARE_H
#define APPS_ISOSURFACE_CORE_RANK_SHARE_H

#include <hwloc.h>

#include <cstdlib>
#include <string>

namespace adapt_iso {

/* The CPUs of local rank `rank` of `size` ranks on the machine of topo
 * (loaded) into set (replaced): the cores [rank * N / size, (rank + 1) * N
 * / size) of the N cores (PUs when hwloc finds no cores); when size > N,
 * core rank mod N alone and *note says the machine is oversubscribed.
 * Returns the PUs in set (at least 1). Requires 0 <= rank < size. Does not
 * bind anything. Thread-safe on a topology no one modifies. */
inline int rank_share(hwloc_topology_t topo, int rank, int size, hwloc_bitmap_t set,
                      std::string *note) {
  hwloc_obj_type_t unit = HWLOC_OBJ_CORE;
  int n = hwloc_get_nbobjs_by_type(topo, unit);
  if (n <= 0) {
    unit = HWLOC_OBJ_PU;
    n = hwloc_get_nbobjs_by_type(topo, unit);
    if (n <= 0) n = 1;
  }
  int c0, c1;
  if (size <= n) {
    c0 = (int)((long)rank * n / size);
    c1 = (int)((long)(rank + 1) * n / size);
  } else {
    c0 = rank % n;
    c1 = c0 + 1;
    *note = std::to_string(size) + " ranks on " + std::to_string(n) + " cores: oversubscribed";
  }
  hwloc_bitmap_zero(set);
  for (int c = c0; c < c1; c++)
    if (hwloc_obj_t o = hwloc_get_obj_by_type(topo, unit, (unsigned)c))
      hwloc_bitmap_or(set, set, o->cpuset);
  const int pus = hwloc_bitmap_weight(set);
  return pus > 0 ? pus : 1;
}

/* This process's local rank and the number of ranks on its machine as its
 * MPI launcher tells them (Open MPI's OMPI_COMM_WORLD_LOCAL_RANK and
 * _LOCAL_SIZE, MPICH's MPI_LOCALRANKID and MPI_LOCALNRANKS); false, nothing
 * written, when not started by one (or the values are not numbers in
 * range). Reads the environment: not thread-safe against setenv. */
inline bool launcher_local_rank(int *rank, int *size) {
  static const char *const names[][2] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"}};
  for (const auto &pair : names) {
    const char *r = std::getenv(pair[0]), *s = std::getenv(pair[1]);
    if (!r || !s) continue;
    char *end1, *end2;
    const long lr = std::strtol(r, &end1, 10), ls = std::strtol(s, &end2, 10);
    if (*r && *s && !*end1 && !*end2 && ls >= 1 && ls <= 1 << 20 && lr >= 0 && lr < ls) {
      *rank = (int)lr;
      *size = (int)ls;
      return true;
    }
  }
  return false;
}

/* The workers for this process as a rank launched by mpirun, unbound: the
 * PUs of its share (rank_share, the launcher's local rank and size) among
 * those the process may run on (the launcher's binding), the share's own
 * when the two do not meet; 0 when not started by a launcher or hwloc
 * cannot load the topology. Loads the topology (milliseconds): call once. */
inline int rank_share_workers() {
  int rank, size;
  if (!launcher_local_rank(&rank, &size)) return 0;
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return 0;
  int workers = 0;
  if (hwloc_topology_load(topo) == 0) {
    hwloc_bitmap_t share = hwloc_bitmap_alloc(), allowed = hwloc_bitmap_alloc();
    std::string note;
    workers = rank_share(topo, rank, size, share, &note);
    if (hwloc_get_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS) == 0) {
      hwloc_bitmap_and(allowed, allowed, share);
      if (const int both = hwloc_bitmap_weight(allowed); both > 0) workers = both;
    }
    hwloc_bitmap_free(share);
    hwloc_bitmap_free(allowed);
  }
  hwloc_topology_destroy(topo);
  return workers;
}

} // namespace adapt_iso

#endif
