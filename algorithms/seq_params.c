/* Parameters of one sequence-algorithm call (see seq_params.h). */
#include "seq_params.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo_config.h"

/* Bad environment values are reported once per process on stderr (the call
 * itself returns -EINVAL every time). */
static atomic_int env_reported;

static int env_error(const char *name, const char *value, const char *expected) {
  /* relaxed: only deduplicates a diagnostic message. */
  if (!atomic_exchange_explicit(&env_reported, 1, memory_order_relaxed))
    fprintf(stderr, "libadapt: bad value %s=\"%s\" (expected %s)\n", name, value, expected);
  return -EINVAL;
}

/* Positive integer from the environment: 0 not set, 1 set (*out), -EINVAL. */
static int env_size(const char *name, size_t *out) {
  const char *s = getenv(name);
  if (!s || !*s) return 0;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || !end || *end || v == 0 || v > SIZE_MAX || s[0] == '-')
    return env_error(name, s, "a positive integer");
  *out = (size_t)v;
  return 1;
}

static int resolve_mode(adapt_window_mode m, adapt_window_mode *out) {
  if (m == ADAPT_WINDOW_NONE || m == ADAPT_WINDOW_STATIC || m == ADAPT_WINDOW_SLIDING) {
    *out = m;
    return 0;
  }
  if (m != ADAPT_WINDOW_DEFAULT) return -EINVAL;
  const char *s = getenv("ADAPT_WINDOW");
  if (!s || !*s || !strcmp(s, "none"))
    *out = ADAPT_WINDOW_NONE;
  else if (!strcmp(s, "static"))
    *out = ADAPT_WINDOW_STATIC;
  else if (!strcmp(s, "sliding"))
    *out = ADAPT_WINDOW_SLIDING;
  else
    return env_error("ADAPT_WINDOW", s, "none, static or sliding");
  return 0;
}

static int resolve_splitter(adapt_window_splitter sp, adapt_window_splitter *out) {
  if (sp == ADAPT_SPLITTER_LOCAL || sp == ADAPT_SPLITTER_DISTANT || sp == ADAPT_SPLITTER_BALANCED) {
    *out = sp;
    return 0;
  }
  if (sp != ADAPT_SPLITTER_DEFAULT) return -EINVAL;
  const char *s = getenv("ADAPT_SPLITTER");
  if (!s || !*s || !strcmp(s, "balanced"))
    *out = ADAPT_SPLITTER_BALANCED;
  else if (!strcmp(s, "local"))
    *out = ADAPT_SPLITTER_LOCAL;
  else if (!strcmp(s, "distant"))
    *out = ADAPT_SPLITTER_DISTANT;
  else
    return env_error("ADAPT_SPLITTER", s, "local, distant or balanced");
  return 0;
}

size_t adapt__seq_default_window(size_t footprint) {
  size_t cache = adapt_shared_cache_size();
  if (cache == 0) cache = ADAPT_ALGO_FALLBACK_CACHE;
  if (footprint == 0) footprint = 1;
  size_t m = cache / ADAPT_ALGO_WINDOW_DIVISOR / footprint;
  return m ? m : 1;
}

int adapt__seq_params_resolve(const adapt_attr *attr, size_t count, size_t unit, size_t footprint,
                              adapt__seq_params *p) {
  adapt_attr a;
  if (attr)
    a = *attr;
  else
    memset(&a, 0, sizeof a);
  if ((int)a.sched < ADAPT_SCHED_DEFAULT || (int)a.sched >= ADAPT_SCHED_COUNT) return -EINVAL;
  p->sched = a.sched;
  if (unit == 0) unit = 1;
  int rc = resolve_mode(a.window, &p->mode);
  if (rc) return rc;
  rc = resolve_splitter(a.splitter, &p->splitter);
  if (rc) return rc;

  p->n = count / unit + (count % unit != 0);
  size_t n1 = p->n ? p->n : 1;

  size_t m_elems = a.window_size;
  if (m_elems == 0 && p->mode != ADAPT_WINDOW_NONE) {
    rc = env_size("ADAPT_WINDOW_SIZE", &m_elems);
    if (rc < 0) return rc;
    if (rc == 0) m_elems = adapt__seq_default_window(a.footprint ? a.footprint : footprint);
  }
  if (p->mode == ADAPT_WINDOW_NONE) {
    p->window = n1;
  } else {
    size_t m = m_elems / unit;
    if (m == 0) m = 1;
    p->window = m < n1 ? m : n1;
  }

  size_t g_elems = a.grain;
  if (g_elems == 0) {
    rc = env_size("ADAPT_GRAIN", &g_elems);
    if (rc < 0) return rc;
  }
  p->auto_grain = g_elems == 0;
  size_t g = p->auto_grain ? 1 : g_elems / unit;
  if (g == 0) g = 1;
  if (g > p->window) g = p->window;
  p->grain = g;
  return 0;
}

int adapt__seq_bytes(size_t count, size_t size, size_t *bytes) {
  if (size == 0) return -EINVAL;
  if (count > SIZE_MAX / size) return -EOVERFLOW;
  *bytes = count * size;
  return 0;
}

int adapt__seq_overlap(const void *a, size_t na, const void *b, size_t nb) {
  if (!na || !nb) return 0;
  uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
  return pa < pb + nb && pb < pa + na;
}
