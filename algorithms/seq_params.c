/* Parameters of one sequence-algorithm call (see seq_params.h). No getenv
 * here: adapt_init reads and checks the environment once (adapt_ext.h). */
#include "seq_params.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "adapt_ext.h"
#include "algo_config.h"

size_t adapt__seq_default_window(size_t footprint) {
  size_t cache = adapt_shared_cache_size();
  if (cache == 0) cache = ADAPT_ALGO_FALLBACK_CACHE;
  if (footprint == 0) footprint = 1;
  size_t m = cache / ADAPT_ALGO_WINDOW_DIVISOR / footprint;
  return m ? m : 1;
}

/* The enum fields of the attribute: 0, or -EINVAL with the detail. */
static int check_attr(const char *fn, const adapt_attr *a) {
  if ((int)a->sched < ADAPT_SCHED_DEFAULT || (int)a->sched >= ADAPT_SCHED_COUNT)
    return adapt__fail(-EINVAL, "%s: attr.sched %d is not an adapt_sched", fn, (int)a->sched);
  if ((int)a->window < ADAPT_WINDOW_DEFAULT || (int)a->window > ADAPT_WINDOW_SLIDING)
    return adapt__fail(-EINVAL, "%s: attr.window %d is not an adapt_window_mode", fn,
                       (int)a->window);
  if ((int)a->splitter < ADAPT_SPLITTER_DEFAULT || (int)a->splitter > ADAPT_SPLITTER_BALANCED)
    return adapt__fail(-EINVAL, "%s: attr.splitter %d is not an adapt_window_splitter", fn,
                       (int)a->splitter);
  return 0;
}

int adapt__seq_params_resolve(const char *fn, const adapt_attr *attr, size_t count, size_t unit,
                              size_t footprint, adapt__seq_params *p) {
  adapt_attr a;
  if (attr)
    a = *attr;
  else
    memset(&a, 0, sizeof a);
  int rc = check_attr(fn, &a);
  if (rc) return rc;
  adapt__seq_defaults d = {0, ADAPT_SCHED_ADAPTIVE, ADAPT_WINDOW_NONE, 0, ADAPT_SPLITTER_BALANCED};
  if (count) { /* count 0 calls nothing: no runtime needed */
    rc = adapt__seq_defaults_get(&d);
    if (rc) return rc;
  }
  if (unit == 0) unit = 1;
  p->fn = fn;
  p->sched = a.sched;
  p->sched_default = d.sched;
  p->mode = a.window != ADAPT_WINDOW_DEFAULT ? a.window : d.window;
  p->splitter = a.splitter != ADAPT_SPLITTER_DEFAULT ? a.splitter : d.splitter;

  p->n = count / unit + (count % unit != 0);
  size_t n1 = p->n ? p->n : 1;
  if (p->mode == ADAPT_WINDOW_NONE || p->n == 0) {
    p->window = n1;
  } else {
    size_t m_elems = a.window_size ? a.window_size
                     : d.window_size
                         ? d.window_size
                         : adapt__seq_default_window(a.footprint ? a.footprint : footprint);
    size_t m = m_elems / unit;
    if (m == 0) m = 1;
    p->window = m < n1 ? m : n1;
  }

  size_t g_elems = a.grain ? a.grain : d.grain;
  p->auto_grain = g_elems == 0;
  size_t g = p->auto_grain ? 1 : g_elems / unit;
  if (g == 0) g = 1;
  if (g > p->window) g = p->window;
  p->grain = g;
  p->grain_key = NULL;
  p->thief_parts = 1;
  p->max_workers = a.max_workers;
  return 0;
}

int adapt__seq_bytes(const char *fn, const char *count_name, const char *size_name, size_t count,
                     size_t size, size_t *bytes) {
  if (size == 0) return adapt__fail(-EINVAL, "%s: %s is 0", fn, size_name);
  if (count > SIZE_MAX / size)
    return adapt__fail(-EOVERFLOW, "%s: %s * %s overflows size_t", fn, count_name, size_name);
  *bytes = count * size;
  return 0;
}

int adapt__seq_overlap(const void *a, size_t na, const void *b, size_t nb) {
  if (!na || !nb) return 0;
  uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
  return pa < pb + nb && pb < pa + na;
}
