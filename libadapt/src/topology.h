/* Topology through hwloc (topology.c): the PUs the runtime may use, the
 * binding of workers to them, and the caches workers share. */
#ifndef LIBADAPT_SRC_TOPOLOGY_H
#define LIBADAPT_SRC_TOPOLOGY_H

#include <stddef.h>

/* Load the topology; *npus: the CPUs the runtime counts. 0, -ENOMEM or
 * -ENODEV. */
int adapt__topology_init(int *npus);
void adapt__topology_fini(void);
/* Bind the calling thread to worker's PU. 0 or a negative errno. */
int adapt__topology_bind(int worker);
/* In a fork's child (runtime.c): forget the copied topology; init_thread:
 * the forking thread was worker 0, and gets its binding before init back. */
void adapt__topology_after_fork(int init_thread);
/* The workers sharing worker's smallest shared cache, in a malloc'd *near:
 * their number, or -ENOMEM. */
int adapt__topology_near(int worker, int **near);

/* With the runtime pinned (query.c): the size of the smallest data cache
 * workers a and b share (0: none or out of range); of the cache all the
 * workers share; the OS index of worker w's PU (-1: not bound). */
size_t adapt__topology_cache_shared_by(int a, int b);
size_t adapt__topology_shared_cache_size(void);
int adapt__topology_worker_pu(int w);

#endif /* LIBADAPT_SRC_TOPOLOGY_H */
