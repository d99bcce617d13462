/* PAPI wrapper: see perfcounters.h. */
#include "perfcounters.h"

#include <errno.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char perfctr_hint[] =
    "hint: Debian's PAPI 7.0 (libpfm4) does not know this CPU's PMU; for AMD Zen4/Zen5 "
    "rerun with LIBPFM_FORCE_PMU=amd64_fam19h_zen3 in the environment "
    "(timings are still measured, without counters)";

/* Split `list` on commas into pc->names. 0 or -EINVAL. */
static int perfctr_parse(perfctr *pc, const char *list) {
  pc->nevents = 0;
  const char *p = list;
  while (*p) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len > 0) {
      if (pc->nevents == PERFCTR_MAX_EVENTS) {
        snprintf(pc->message, sizeof pc->message, "PAPI: more than %d events in '%s'",
                 PERFCTR_MAX_EVENTS, list);
        return -EINVAL;
      }
      if (len >= PERFCTR_NAME_MAX) {
        snprintf(pc->message, sizeof pc->message, "PAPI: event name too long in '%s'", list);
        return -EINVAL;
      }
      memcpy(pc->names[pc->nevents], p, len);
      pc->names[pc->nevents][len] = '\0';
      pc->nevents++;
    }
    if (!comma) break;
    p = comma + 1;
  }
  if (pc->nevents == 0) {
    snprintf(pc->message, sizeof pc->message, "PAPI: empty event list");
    return -EINVAL;
  }
  return 0;
}

static const char perfctr_nopmu[] =
    "the kernel exposes no hardware PMU (/sys/bus/event_source/devices/cpu is missing: "
    "typically a VM without PMU pass-through, see `dmesg | grep -i pmu` and "
    "`perf stat -e cycles true`); no cache counters can be read on this machine "
    "(timings are still measured, without counters)";

static int perfctr_fail(perfctr *pc, int err, const char *what, int papi_err, int hint) {
  int n = snprintf(pc->message, sizeof pc->message, "PAPI: %s: %s", what,
                   papi_err ? PAPI_strerror(papi_err) : "unavailable");
  if (hint && n > 0 && (size_t)n < sizeof pc->message) {
    const char *why = NULL;
    if (access("/sys/bus/event_source/devices/cpu", F_OK) != 0)
      why = perfctr_nopmu;
    else if (!getenv("LIBPFM_FORCE_PMU"))
      why = perfctr_hint;
    if (why) snprintf(pc->message + n, sizeof pc->message - (size_t)n, "\n%s", why);
  }
  if (pc->eventset != PAPI_NULL) {
    PAPI_cleanup_eventset(pc->eventset);
    PAPI_destroy_eventset(&pc->eventset);
    pc->eventset = PAPI_NULL;
  }
  pc->available = 0;
  return err;
}

int perfctr_init(perfctr *pc, const char *events) {
  if (!pc) return -EINVAL;
  memset(pc, 0, sizeof *pc);
  pc->eventset = PAPI_NULL;
  if (!events || !*events) events = getenv(PERFCTR_ENV_EVENTS);
  if (!events || !*events) events = PERFCTR_DEFAULT_EVENTS;
  if (strcmp(events, "none") == 0) {
    snprintf(pc->message, sizeof pc->message, "PAPI: counters disabled (event list 'none')");
    return -ECANCELED;
  }
  int err = perfctr_parse(pc, events);
  if (err) return err;

  if (!PAPI_is_initialized()) {
    int v = PAPI_library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT)
      return perfctr_fail(pc, -ENODEV, "PAPI_library_init", v < 0 ? v : 0, 0);
  }
  int cidx = PAPI_get_component_index("perf_event");
  const PAPI_component_info_t *ci = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
  if (!ci || ci->disabled || ci->num_cntrs <= 0) {
    char what[PAPI_HUGE_STR_LEN + 64];
    snprintf(what, sizeof what, "no usable PMU (perf_event component %s)",
             ci && ci->disabled ? ci->disabled_reason : "missing");
    return perfctr_fail(pc, -ENODEV, what, 0, 1);
  }
  int r = PAPI_create_eventset(&pc->eventset);
  if (r != PAPI_OK) return perfctr_fail(pc, -ENODEV, "PAPI_create_eventset", r, 0);
  r = PAPI_assign_eventset_component(pc->eventset, cidx);
  if (r != PAPI_OK) return perfctr_fail(pc, -ENODEV, "PAPI_assign_eventset_component", r, 0);
  for (int i = 0; i < pc->nevents; i++) {
    int code = 0;
    r = PAPI_event_name_to_code(pc->names[i], &code);
    if (r == PAPI_OK) r = PAPI_add_event(pc->eventset, code);
    if (r != PAPI_OK) {
      char what[PERFCTR_NAME_MAX + 64];
      snprintf(what, sizeof what, "event %s not usable on this PMU", pc->names[i]);
      return perfctr_fail(pc, -ENODEV, what, r, 1);
    }
  }
  PAPI_option_t opt;
  memset(&opt, 0, sizeof opt);
  opt.inherit.eventset = pc->eventset;
  opt.inherit.inherit = PAPI_INHERIT_ALL;
  r = PAPI_set_opt(PAPI_INHERIT, &opt);
  if (r != PAPI_OK) return perfctr_fail(pc, -ENODEV, "PAPI_set_opt(PAPI_INHERIT)", r, 0);
  /* Start once here so that the kernel counters exist (and are inherited by
   * threads created from now on); perfctr_start resets them. */
  r = PAPI_start(pc->eventset);
  if (r != PAPI_OK)
    return perfctr_fail(pc, -ENODEV, "PAPI_start (perf_event_paranoid or PMU)", r, 1);
  pc->available = 1;
  return 0;
}

int perfctr_start(perfctr *pc) {
  if (!pc || !pc->available) return -ENODEV;
  if (pc->running) return -EBUSY;
  if (PAPI_reset(pc->eventset) != PAPI_OK) return -EIO;
  pc->running = 1;
  return 0;
}

int perfctr_read(perfctr *pc, long long *values) {
  if (!pc || !pc->available) return -ENODEV;
  if (!values || !pc->running) return -EINVAL;
  return PAPI_read(pc->eventset, values) == PAPI_OK ? 0 : -EIO;
}

/* The kernel counters keep running after "stop" (stopping and restarting
 * them would detach the inherited counters of already-running threads);
 * stop only takes the final reading and the next start resets them. */
int perfctr_stop(perfctr *pc, long long *values) {
  if (!pc || !pc->available) return -ENODEV;
  if (!pc->running) return -EINVAL;
  long long tmp[PERFCTR_MAX_EVENTS];
  int r = PAPI_read(pc->eventset, values ? values : tmp);
  pc->running = 0;
  return r == PAPI_OK ? 0 : -EIO;
}

void perfctr_destroy(perfctr *pc) {
  if (!pc || pc->eventset == PAPI_NULL) return;
  long long tmp[PERFCTR_MAX_EVENTS];
  if (pc->available) PAPI_stop(pc->eventset, tmp);
  PAPI_cleanup_eventset(pc->eventset);
  PAPI_destroy_eventset(&pc->eventset);
  pc->eventset = PAPI_NULL;
  pc->available = 0;
  pc->running = 0;
}
