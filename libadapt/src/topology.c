/* Topology through hwloc: PUs, binding, caches shared by workers. The
 * topology is restricted to the PUs that the thread starting the runtime may
 * run on (its affinity: taskset, numactl, an MPI launcher's or a batch
 * system's binding, a cgroup cpuset); worker i runs on the i-th of them mod
 * their number (logical order). The number of CPUs the runtime counts is
 * further bounded by the cgroups' CPU bandwidth limit (cgroup.h). */
#include "topology.h"

#include <errno.h>
#include <hwloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup.h"
#include "rt.h"

static hwloc_topology_t topo;
static int topo_loaded;
static hwloc_cpuset_t caller_set; /* worker 0's binding before init */
static pid_t caller_tid;          /* worker 0's thread: the one adapt_init bound */

/* The machine as hwloc loaded it, unrestricted, kept for the process's
 * life: each start copies it (hwloc_topology_dup) instead of loading again,
 * which reads /sys and dlopens hwloc's plugins: tens of ms per start, most
 * of a start's cost (a program that starts and stops the runtime often, the
 * test suite). Loaded again when the HWLOC_* environment that hwloc reads
 * (HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_FSROOT, ...) differs from the one
 * it was loaded with. Touched only by adapt_init and adapt_finalize
 * (serialised by the runtime's init lock). */
static hwloc_topology_t machine;
static uint64_t machine_env; /* hwloc_env() when it was loaded */

/* A hash (64-bit FNV-1a) of the HWLOC_* variables of the environment, in
 * their order: no allocation, so that a start allocates what it did. */
static uint64_t hwloc_env(void) {
  extern char **environ;
  uint64_t h = 0xcbf29ce484222325ull;
  for (char **e = environ; e && *e; e++)
    if (strncmp(*e, "HWLOC_", 6) == 0)
      for (const char *c = *e;; c++) {
        h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
        if (!*c) break;
      }
  return h;
}

/* machine, loaded for the current HWLOC_* environment. 0, -ENOMEM, or
 * -ENODEV (hwloc could not load the topology). */
static int machine_load(void) {
  uint64_t env = hwloc_env();
  if (machine && env == machine_env) return 0;
  if (machine) {
    hwloc_topology_destroy(machine);
    machine = NULL;
  }
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) != 0) return -ENOMEM;
  if (hwloc_topology_load(t) != 0) {
    hwloc_topology_destroy(t);
    return -ENODEV;
  }
  machine = t;
  machine_env = env;
  return 0;
}

/* Keep only the PUs the calling thread may run on. A binding that hwloc
 * cannot read, or that names none of the topology's PUs, keeps them all; so
 * does a topology that is not this machine's (HWLOC_XMLFILE,
 * HWLOC_SYNTHETIC). 0, or -ENOMEM (the topology is then unusable). */
static int restrict_to_binding(void) {
  if (!hwloc_topology_is_thissystem(topo)) return 0;
  hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
  hwloc_cpuset_t set = hwloc_bitmap_alloc();
  if (!set) return -ENOMEM;
  int rc = 0;
  if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0) {
    hwloc_bitmap_and(set, set, all);
    if (!hwloc_bitmap_iszero(set) && !hwloc_bitmap_isequal(set, all) &&
        hwloc_topology_restrict(topo, set, 0) != 0 && errno == ENOMEM)
      rc = -ENOMEM;
  }
  hwloc_bitmap_free(set);
  return rc;
}

int adapt__topology_init(int *npus) {
  int rc = machine_load();
  if (rc) return rc;
  if (hwloc_topology_dup(&topo, machine) != 0) return -ENOMEM;
  rc = restrict_to_binding();
  if (rc) {
    hwloc_topology_destroy(topo);
    return rc;
  }
  topo_loaded = 1;
  int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  if (n < 1) n = 1;
  /* A CPU bandwidth limit (a container's --cpus) allows fewer CPUs than
   * the mask may list: the default worker count and the oversubscription
   * threshold follow it. */
  int limit = adapt__cgroup_cpu_limit("/proc/self/cgroup", "/proc/self/mountinfo", "");
  *npus = limit > 0 && limit < n ? limit : n;
  return 0;
}

/* Gives worker 0's thread its own CPUs back. adapt_finalize may run on
 * another thread (a foreign thread finalizing while the initialising one
 * works): that thread is then rebound by its id, if it is still a thread of
 * this process (tgkill with signal 0 checks that; an exited thread keeps
 * nothing to restore). */
static void restore_caller(void) {
  if (caller_tid == gettid()) {
    hwloc_set_cpubind(topo, caller_set, HWLOC_CPUBIND_THREAD);
  } else if (syscall(SYS_tgkill, getpid(), caller_tid, 0) == 0) {
    hwloc_set_proc_cpubind(topo, caller_tid, caller_set, HWLOC_CPUBIND_THREAD);
  }
}

void adapt__topology_fini(void) {
  if (!topo_loaded) return;
  if (caller_set) {
    restore_caller();
    hwloc_bitmap_free(caller_set);
    caller_set = NULL;
  }
  hwloc_topology_destroy(topo);
  topo_loaded = 0;
}

/* The abandoned runtime's, in a fork's child (reachable for leak checkers). */
static hwloc_topology_t volatile abandoned_topo; /* volatile: stored, never read */
static hwloc_cpuset_t volatile abandoned_set;

void adapt__topology_after_fork(int init_thread) {
  /* The forking thread was worker 0, bound to its PU by this library: give
   * it back its own CPUs, which the child's next runtime starts from. */
  if (init_thread && caller_set) hwloc_set_cpubind(topo, caller_set, HWLOC_CPUBIND_THREAD);
  if (topo_loaded) abandoned_topo = topo;
  if (caller_set) abandoned_set = caller_set;
  topo_loaded = 0;
  caller_set = NULL;
}

static hwloc_obj_t pu_of(int w) {
  int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  if (n <= 0) return NULL;
  return hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)(w % n));
}

int adapt__topology_bind(int w) {
  hwloc_obj_t pu = pu_of(w);
  if (!pu) return -ENODEV;
  if (w == 0 && !caller_set) {
    caller_set = hwloc_bitmap_alloc();
    if (caller_set && hwloc_get_cpubind(topo, caller_set, HWLOC_CPUBIND_THREAD) != 0) {
      hwloc_bitmap_free(caller_set);
      caller_set = NULL;
    }
    caller_tid = gettid();
  }
  return hwloc_set_cpubind(topo, pu->cpuset, HWLOC_CPUBIND_THREAD) == 0 ? 0 : -errno;
}

/* Smallest data cache containing both PUs (the PU itself for a == b). */
static hwloc_obj_t shared_cache(hwloc_obj_t a, hwloc_obj_t b) {
  hwloc_obj_t o = hwloc_get_common_ancestor_obj(topo, a, b);
  while (o && !hwloc_obj_type_is_dcache(o->type)) o = o->parent;
  return o;
}

static size_t cache_shared(int a, int b) {
  hwloc_obj_t pa = pu_of(a), pb = pu_of(b);
  if (!pa || !pb) return 0;
  hwloc_obj_t c = shared_cache(pa, pb);
  return c ? (size_t)c->attr->cache.size : 0;
}

size_t adapt__topology_cache_shared_by(int a, int b) {
  return a < 0 || b < 0 || a >= adapt__rt.nworkers || b >= adapt__rt.nworkers ? 0
                                                                              : cache_shared(a, b);
}

size_t adapt__topology_shared_cache_size(void) {
  hwloc_obj_t o = pu_of(0);
  if (!o) return 0;
  for (int w = 1; w < adapt__rt.nworkers; w++) {
    hwloc_obj_t p = pu_of(w);
    if (p) o = hwloc_get_common_ancestor_obj(topo, o, p);
  }
  /* All workers on one PU: their shared cache is the largest above it. */
  hwloc_obj_t best = NULL;
  if (o && o->type == HWLOC_OBJ_PU) {
    for (hwloc_obj_t c = o; c; c = c->parent)
      if (hwloc_obj_type_is_dcache(c->type)) best = c;
  } else {
    best = o;
    while (best && !hwloc_obj_type_is_dcache(best->type)) best = best->parent;
  }
  return best ? (size_t)best->attr->cache.size : 0;
}

int adapt__topology_worker_pu(int w) {
  hwloc_obj_t pu = w < 0 || w >= adapt__rt.nworkers || !adapt__rt.bind ? NULL : pu_of(w);
  return pu ? (int)pu->os_index : -1;
}

/* Workers sharing w's smallest shared cache (the cache that w shares with
 * at least one other worker), w excluded. */
int adapt__topology_near(int w, int **near) {
  int n = adapt__rt.nworkers;
  *near = NULL;
  if (n < 2) return 0;
  size_t best = 0;
  for (int v = 0; v < n; v++) {
    if (v == w) continue;
    size_t s = cache_shared(w, v);
    if (s && (!best || s < best)) best = s;
  }
  if (!best) return 0;
  int *list = malloc(sizeof(int) * (size_t)n), k = 0;
  if (!list) return -ENOMEM;
  for (int v = 0; v < n; v++)
    if (v != w && cache_shared(w, v) == best) list[k++] = v;
  *near = list;
  return k;
}
