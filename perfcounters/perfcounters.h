/* Hardware performance counters through PAPI, for the benchmarks and the
 * isosurface app.
 *
 * One perfctr counts a list of PAPI events (presets such as PAPI_TOT_CYC or
 * native libpfm4 names such as ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL)
 * for the calling process: the event set is opened with PAPI_INHERIT, so the
 * threads created AFTER perfctr_init (runtime workers, TBB/STDThread pools)
 * are counted too. Call perfctr_init before starting any worker thread that
 * must be counted.
 *
 * When PAPI finds no usable PMU (Debian's PAPI 7.0 / libpfm4 predate the
 * CPU) perfctr_init fails with a message that gives the
 * LIBPFM_FORCE_PMU=amd64_fam19h_zen3 hint; the caller keeps timing without
 * counters (every other call is then a no-op that returns -ENODEV).
 *
 * Not thread-safe: one thread owns a perfctr (the one that called init).
 */
#ifndef PERFCOUNTERS_PERFCOUNTERS_H
#define PERFCOUNTERS_PERFCOUNTERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most events one perfctr counts (the PMU has 6 general counters). */
#define PERFCTR_MAX_EVENTS 6
/* Longest event name kept, bytes including the terminating NUL. */
#define PERFCTR_NAME_MAX 96

/* The default event list: cycles, L2 data-cache misses, and the lines
 * filled from local DRAM, used as the last-level-cache miss count because
 * the VM hides the L3 counters. */
#define PERFCTR_DEFAULT_EVENTS                                                                     \
  "PAPI_TOT_CYC,PAPI_L2_DCM,ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL"

/* Environment variable giving the event list when the caller passes NULL. */
#define PERFCTR_ENV_EVENTS "ADAPT_PAPI_EVENTS"

typedef struct perfctr {
  int available; /* 1: counters run */
  int nevents;   /* events parsed from the list */
  int eventset;  /* PAPI event set, internal */
  int running;   /* 1 between start and stop */
  char names[PERFCTR_MAX_EVENTS][PERFCTR_NAME_MAX];
  char message[512]; /* why not available, "" if ok */
} perfctr;

/* Open the counters for the comma-separated event list `events` (NULL or
 * "": env ADAPT_PAPI_EVENTS, else PERFCTR_DEFAULT_EVENTS); "none" disables
 * the counters on purpose. Always fills pc->names/nevents from the list so a
 * caller can print column headers.
 * Returns 0 (pc->available = 1) or a negative errno with pc->message set:
 * -EINVAL NULL pc, empty or too long list (> PERFCTR_MAX_EVENTS names, or a
 * name >= PERFCTR_NAME_MAX); -ENODEV PAPI could not be initialised, no PMU,
 * an event unknown to this PMU or refused by the kernel (perf_event_paranoid);
 * -ECANCELED the list was "none". */
int perfctr_init(perfctr *pc, const char *events);

/* Zero the counts and start counting (this thread and inheriting threads).
 * Errors: -ENODEV not available, -EBUSY already started, -EIO PAPI error. */
int perfctr_start(perfctr *pc);

/* Read the counts since perfctr_start into values[0..nevents-1] without
 * stopping. Errors: -ENODEV, -EINVAL NULL values or not started, -EIO. */
int perfctr_read(perfctr *pc, long long *values);

/* Stop counting and store the counts since perfctr_start in
 * values[0..nevents-1] (values may be NULL). Errors as perfctr_read. */
int perfctr_stop(perfctr *pc, long long *values);

/* Release the event set. Idempotent; pc may be NULL. PAPI itself stays
 * initialised for the process. */
void perfctr_destroy(perfctr *pc);

#ifdef __cplusplus
}
#endif

#endif /* PERFCOUNTERS_PERFCOUNTERS_H */
