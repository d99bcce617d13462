/* Scheduler names, the default grain of the non-adaptive schedulers, and
 * their dispatch from adapt_for. */
#include "schedulers.h"

#include <errno.h>
#include <string.h>

#include "debug.h"
#include "error.h"
#include "worker.h"

static const char *const names[ADAPT_SCHED_COUNT] = {
    [ADAPT_SCHED_DEFAULT] = "default",     [ADAPT_SCHED_ADAPTIVE] = "adaptive",
    [ADAPT_SCHED_LOOPFRAME] = "loopframe", [ADAPT_SCHED_DAC] = "dac",
    [ADAPT_SCHED_HYBRID] = "hybrid",       [ADAPT_SCHED_LAZY_DF] = "lazy-df",
    [ADAPT_SCHED_LAZY_DF2] = "lazy-df2",   [ADAPT_SCHED_LAZY_BF] = "lazy-bf",
    [ADAPT_SCHED_STATIC] = "static",
};

const char *adapt_sched_name(adapt_sched s) {
  return (int)s >= 0 && (int)s < ADAPT_SCHED_COUNT ? names[s] : NULL;
}

int adapt_sched_parse(const char *name, adapt_sched *out) {
  adapt__error_clear();
  if (!name) return adapt__fail(-EINVAL, "adapt_sched_parse: name is NULL");
  if (!out) return adapt__fail(-EINVAL, "adapt_sched_parse: out is NULL");
  for (int i = 0; i < ADAPT_SCHED_COUNT; i++) {
    if (!strcmp(name, names[i])) {
      *out = (adapt_sched)i;
      return 0;
    }
  }
  return adapt__fail(-EINVAL, "adapt_sched_parse: unknown scheduler name \"%.64s\"", name);
}

size_t adapt__default_grain(size_t n, int nworkers) {
  size_t g = n / (8u * (size_t)(nworkers > 0 ? nworkers : 1));
  if (g > ADAPT_SCHED_GRAIN_MAX) g = ADAPT_SCHED_GRAIN_MAX;
  return g ? g : 1;
}

void adapt__for_sched(adapt_sched s, adapt__worker *w, const adapt__loop *l) {
  switch (s) {
  case ADAPT_SCHED_LOOPFRAME: adapt__for_loopframe(w, l); break;
  case ADAPT_SCHED_DAC: adapt__for_dac(w, l); break;
  case ADAPT_SCHED_HYBRID: adapt__for_hybrid(w, l); break;
  case ADAPT_SCHED_LAZY_DF: adapt__for_lazy(w, l, 1, 0); break;
  case ADAPT_SCHED_LAZY_DF2: adapt__for_lazy(w, l, 2, 0); break;
  case ADAPT_SCHED_LAZY_BF: adapt__for_lazy(w, l, 1, 1); break;
  default: /* ADAPT_SCHED_STATIC: adapt_for passes no other value */
    ADAPT_ASSERT_EQ((int)s, (int)ADAPT_SCHED_STATIC);
    adapt__for_static(w, l);
    break;
  }
}
