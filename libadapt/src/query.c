/* What a program or a sequence algorithm may ask of the running runtime
 * (adapt.h, adapt_ext.h): the number of workers (and of idle ones), the
 * calling thread's id, the caches and PUs of the workers, the defaults of the per-call
 * attributes, the version. Outside regions each pins the runtime, starting
 * it first if it is not running. */
#include <adapt/adapt.h>

#include "runtime.h"
#include "topology.h"
#include "worker.h"

int adapt__seq_defaults_get(adapt__seq_defaults *out) {
  /* Inside a region or on a worker thread the runtime runs and is not
   * finalized before the region ends. */
  if (adapt__in_region() || adapt__pool_thread()) {
    *out = adapt__rt.seq;
    return 0;
  }
  int rc = adapt__pin_start(); /* a concurrent finalize and init rewrite seq */
  if (rc) return rc;
  *out = adapt__rt.seq;
  adapt__unpin();
  return 0;
}

int adapt_num_workers(void) {
  if (adapt__in_region() || adapt__pool_thread())
    return adapt__rt.nworkers; /* not finalized before the region ends */
  if (adapt__pin_start() != 0) return 1;
  int n = adapt__rt.nworkers;
  adapt__unpin();
  return n;
}

int adapt_worker_id(void) { return adapt__self_id(); }

int adapt_idle_workers(void) {
  if (adapt__in_region() || adapt__pool_thread()) {
    if (adapt__self_id() < 0) return 0; /* a region run alone: no worker helps */
    /* relaxed: a snapshot, a hint only (see adapt.h). */
    int n = atomic_load_explicit(&adapt__rt.idle, memory_order_relaxed);
    return n > 0 ? n : 0;
  }
  /* Outside regions: what a call made here would get. */
  if (adapt__pin() != 0) return 0; /* not running */
  /* relaxed: the POOL bit changes under no lock we hold; a hint. */
  unsigned r = atomic_load_explicit(&adapt__rt.regions, memory_order_relaxed);
  int n = (r & ADAPT__REGIONS_POOL) ? 0 : adapt__rt.nworkers - 1;
  adapt__unpin();
  return n;
}

size_t adapt_cache_shared_by(int a, int b) {
  if (adapt__pin_start() != 0) return 0; /* the topology is freed by finalize */
  size_t s = adapt__topology_cache_shared_by(a, b);
  adapt__unpin();
  return s;
}

size_t adapt_shared_cache_size(void) {
  if (adapt__pin_start() != 0) return 0;
  size_t s = adapt__topology_shared_cache_size();
  adapt__unpin();
  return s;
}

int adapt_worker_pu(int w) {
  if (adapt__pin_start() != 0) return -1;
  int os = adapt__topology_worker_pu(w);
  adapt__unpin();
  return os;
}

unsigned adapt_version(void) { return ADAPT_VERSION_HEX; }

#define ADAPT_STR2(x) #x
#define ADAPT_STR(x) ADAPT_STR2(x)
const char *adapt_version_string(void) {
  return ADAPT_STR(ADAPT_VERSION_MAJOR) "." ADAPT_STR(ADAPT_VERSION_MINOR) "." ADAPT_STR(
      ADAPT_VERSION_PATCH);
}
