/* Settings: the table of every environment variable the library reads
 * (type, range, one message format), read and checked once per adapt_init
 * attempt, and merged with the adapt_config fields and the defaults. */
#ifndef LIBADAPT_SRC_SETTINGS_H
#define LIBADAPT_SRC_SETTINGS_H

#include <adapt/adapt.h>

#include "../ext/adapt_ext.h"

/* Largest value of ADAPT_SPIN_US, ADAPT_STEAL_TIMEOUT_US and of the
 * matching adapt_config fields, µs (10 s). */
#define ADAPT__SETTINGS_US_MAX 10000000u

/* A configuration resolved from cfg, the environment and the defaults. */
typedef struct adapt__settings {
  int workers;               /* >= 1 */
  int bind;                  /* 1: each worker bound to its PU */
  int victim_cache;          /* 1: closest shared cache first, 0: random */
  int steal_outer;           /* 1: outermost frame split first */
  unsigned spin_us;          /* idle spin before sleeping */
  unsigned steal_timeout_us; /* >= 1 */
  int stats;                 /* 1: statistics printed at finalize */
  const char *trace_file;    /* NULL: no trace; points into cfg or the environment */
  unsigned trace_mask;       /* ADAPT__TRACE_* categories, 0 without trace_file */
  adapt__seq_defaults seq;   /* defaults of the per-call attributes */
  adapt_sched nested_sched;  /* adapt_for's inside a region: ADAPT_SCHED, else LAZY_DF2 */
  unsigned spawn_keep;       /* ADAPT_SPAWN_KEEP: 0 eager, else the lazy spawns' threshold */
} adapt__settings;

/* Check the fields of cfg (NULL: none set) against their ranges.
 * 0, or -EINVAL with the detail "adapt_init: cfg->workers -3: expected an
 * integer 0..256" (the error is the caller's: nothing is printed). */
int adapt__settings_check_config(const adapt_config *cfg);

/* Check cfg (as above), read and check every variable of the table, then
 * merge: each setting is cfg's field if set, else the variable if set
 * (non-empty), else the default; npus (>= 1) gives the default number of
 * workers. Every bad value of a variable is printed on stderr, one line
 * each, in one format: libadapt: bad value ADAPT_GRAIN="0" (expected an
 * integer 1..18446744073709551615); the detail names the first one.
 * quiet_repeat (a lazy start): print nothing when the previous failed call
 * printed the same bad values (a program calling an algorithm in a loop
 * gets the lines once, not once per call).
 * Every variable is checked, also when a cfg field overrides it.
 * 0, or -EINVAL (*out unspecified). Called by adapt_init (under its lock:
 * getenv is not thread-safe against setenv). */
int adapt__settings_resolve(const adapt_config *cfg, int npus, int quiet_repeat,
                            adapt__settings *out);

#endif /* LIBADAPT_SRC_SETTINGS_H */
