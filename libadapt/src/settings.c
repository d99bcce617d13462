/* Settings: the environment table, its checks, and the merge with
 * adapt_config (see settings.h; docs/guide.md, "Configuration"). */
#include "settings.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "trace.h"

typedef enum kind {
  K_UINT,   /* decimal integer in [min, max], digits only */
  K_CHOICE, /* one name of the list */
  K_LIST,   /* comma-separated names of the list, the values or'ed */
  K_STRING  /* any non-empty string */
} kind;

typedef struct choice {
  const char *name;
  unsigned value;
} choice;

typedef struct setting {
  const char *name;
  kind kind;
  unsigned long long min, max; /* K_UINT */
  const choice *choices;       /* K_CHOICE, K_LIST: ends with a NULL name */
} setting;

enum {
  S_WORKERS,
  S_BIND,
  S_VICTIM,
  S_STEAL_ORDER,
  S_SPIN_US,
  S_STEAL_TIMEOUT_US,
  S_STATS,
  S_TRACE,
  S_TRACE_EVENTS,
  S_GRAIN,
  S_SCHED,
  S_WINDOW,
  S_WINDOW_SIZE,
  S_SPLITTER,
  S_SPAWN_KEEP,
  S_COUNT
};

static const choice victims[] = {
    {"random", ADAPT_VICTIM_RANDOM}, {"cache", ADAPT_VICTIM_CACHE}, {NULL, 0}};
static const choice orders[] = {
    {"outer", ADAPT_STEAL_OUTER}, {"inner", ADAPT_STEAL_INNER}, {NULL, 0}};
static const choice events[] = {
    {"range", ADAPT__TRACE_RANGE},
    {"steal", ADAPT__TRACE_STEAL},
    {"preempt", ADAPT__TRACE_PREEMPT},
    {"sleep", ADAPT__TRACE_SLEEP},
    {"all", ADAPT__TRACE_RANGE | ADAPT__TRACE_STEAL | ADAPT__TRACE_PREEMPT | ADAPT__TRACE_SLEEP},
    {NULL, 0}};
/* As adapt_sched_name spells them (tests/libadapt/test_sched.c sets each one). */
static const choice scheds[] = {
    {"default", ADAPT_SCHED_ADAPTIVE},    {"adaptive", ADAPT_SCHED_ADAPTIVE},
    {"loopframe", ADAPT_SCHED_LOOPFRAME}, {"dac", ADAPT_SCHED_DAC},
    {"hybrid", ADAPT_SCHED_HYBRID},       {"lazy-df", ADAPT_SCHED_LAZY_DF},
    {"lazy-df2", ADAPT_SCHED_LAZY_DF2},   {"lazy-bf", ADAPT_SCHED_LAZY_BF},
    {"static", ADAPT_SCHED_STATIC},       {NULL, 0}};
_Static_assert(ADAPT_SCHED_COUNT == 9, "one name per adapt_sched in scheds[]");
static const choice windows[] = {{"none", ADAPT_WINDOW_NONE},
                                 {"static", ADAPT_WINDOW_STATIC},
                                 {"sliding", ADAPT_WINDOW_SLIDING},
                                 {NULL, 0}};
static const choice splitters[] = {{"local", ADAPT_SPLITTER_LOCAL},
                                   {"distant", ADAPT_SPLITTER_DISTANT},
                                   {"balanced", ADAPT_SPLITTER_BALANCED},
                                   {NULL, 0}};

/* Every variable the library reads; docs/guide.md has the same table. */
static const setting table[S_COUNT] = {
    [S_WORKERS] = {"ADAPT_WORKERS", K_UINT, 1, ADAPT_MAX_WORKERS, NULL},
    [S_BIND] = {"ADAPT_BIND", K_UINT, 0, 1, NULL},
    [S_VICTIM] = {"ADAPT_VICTIM", K_CHOICE, 0, 0, victims},
    [S_STEAL_ORDER] = {"ADAPT_STEAL_ORDER", K_CHOICE, 0, 0, orders},
    [S_SPIN_US] = {"ADAPT_SPIN_US", K_UINT, 0, ADAPT__SETTINGS_US_MAX, NULL},
    [S_STEAL_TIMEOUT_US] = {"ADAPT_STEAL_TIMEOUT_US", K_UINT, 1, ADAPT__SETTINGS_US_MAX, NULL},
    [S_STATS] = {"ADAPT_STATS", K_UINT, 0, 1, NULL},
    [S_TRACE] = {"ADAPT_TRACE", K_STRING, 0, 0, NULL},
    [S_TRACE_EVENTS] = {"ADAPT_TRACE_EVENTS", K_LIST, 0, 0, events},
    [S_GRAIN] = {"ADAPT_GRAIN", K_UINT, 1, SIZE_MAX, NULL},
    [S_SCHED] = {"ADAPT_SCHED", K_CHOICE, 0, 0, scheds},
    [S_WINDOW] = {"ADAPT_WINDOW", K_CHOICE, 0, 0, windows},
    [S_WINDOW_SIZE] = {"ADAPT_WINDOW_SIZE", K_UINT, 1, SIZE_MAX, NULL},
    [S_SPLITTER] = {"ADAPT_SPLITTER", K_CHOICE, 0, 0, splitters},
    [S_SPAWN_KEEP] = {"ADAPT_SPAWN_KEEP", K_UINT, 0, ADAPT_DEQUE_CAP - 1, NULL},
};

/* One variable as read: set (non-empty), its raw text and parsed value. */
typedef struct env_value {
  int set;
  const char *text;
  unsigned long long value;
} env_value;

/* Digits only (no sign, no blank), no overflow. 0 or -1. */
static int parse_uint(const char *s, unsigned long long *out) {
  unsigned long long v = 0;
  if (!*s) return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    unsigned d = (unsigned)(*s - '0');
    if (v > (ULLONG_MAX - d) / 10) return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

/* The name s[0, n) in the list: 0 and its value, or -1. */
static int parse_name(const choice *c, const char *s, size_t n, unsigned *out) {
  for (; c->name; c++)
    if (strlen(c->name) == n && !strncmp(c->name, s, n)) {
      *out = c->value;
      return 0;
    }
  return -1;
}

static int parse(const setting *t, const char *s, unsigned long long *out) {
  unsigned v = 0, m = 0;
  switch (t->kind) {
  case K_UINT: return parse_uint(s, out) || *out < t->min || *out > t->max ? -1 : 0;
  case K_CHOICE:
    if (parse_name(t->choices, s, strlen(s), &v)) return -1;
    *out = v;
    return 0;
  case K_LIST:
    for (;;) {
      size_t n = strcspn(s, ",");
      if (parse_name(t->choices, s, n, &v)) return -1; /* also an empty name */
      m |= v;
      if (!s[n]) break;
      s += n + 1;
    }
    *out = m;
    return 0;
  default: *out = 0; return 0;
  }
}

/* What a value of t must look like, after "expected ". */
static void expected(const setting *t, char *buf, size_t size) {
  size_t k = 0;
  if (t->kind == K_UINT) {
    snprintf(buf, size, "an integer %llu..%llu", t->min, t->max);
    return;
  }
  k = (size_t)snprintf(buf, size, "%s",
                       t->kind == K_LIST ? "a comma-separated list of " : "one of ");
  for (const choice *c = t->choices; c->name && k < size; c++)
    k += (size_t)snprintf(buf + k, size - k, "%s%s", c == t->choices ? "" : "|", c->name);
}

/* Identity of the bad values the last failed attempt printed (FNV-1a of
 * their names and texts), 0 after a success. Under adapt_init's lock. */
static uint64_t printed;

static uint64_t hash_str(uint64_t h, const char *s) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (h ^ 0xffu) * 1099511628211ull; /* a separator */
}

/* Read and check every variable. Bad values are printed, one line each,
 * unless quiet_repeat and the previous failed attempt printed the same
 * ones. 0, or -EINVAL with the detail of the first bad one. */
static int read_env(env_value e[S_COUNT], int quiet_repeat) {
  int bad[S_COUNT], nbad = 0;
  uint64_t h = 14695981039346656037ull;
  for (int i = 0; i < S_COUNT; i++) {
    const char *s = getenv(table[i].name);
    e[i].set = s && *s;
    e[i].text = e[i].set ? s : NULL;
    e[i].value = 0;
    if (!e[i].set || parse(&table[i], s, &e[i].value) == 0) continue;
    e[i].set = 0;
    bad[nbad++] = i;
    h = hash_str(hash_str(h, table[i].name), s);
  }
  if (nbad == 0) {
    printed = 0;
    return 0;
  }
  int quiet = quiet_repeat && h == printed;
  printed = h;
  char exp[160];
  for (int k = 0; k < nbad && !quiet; k++) {
    const setting *t = &table[bad[k]];
    expected(t, exp, sizeof exp);
    fprintf(stderr, "libadapt: bad value %s=\"%s\" (expected %s)\n", t->name, e[bad[k]].text, exp);
  }
  const setting *t = &table[bad[0]];
  expected(t, exp, sizeof exp);
  return adapt__fail(-EINVAL, "adapt_init: %s=\"%s\": expected %s", t->name, e[bad[0]].text, exp);
}

static int bad_field(const char *field, long long v, long long lo, long long hi) {
  return adapt__fail(-EINVAL, "adapt_init: cfg->%s %lld: expected an integer %lld..%lld", field, v,
                     lo, hi);
}

int adapt__settings_check_config(const adapt_config *cfg) {
  if (!cfg) return 0;
  if (cfg->workers < 0 || cfg->workers > ADAPT_MAX_WORKERS)
    return bad_field("workers", cfg->workers, 0, ADAPT_MAX_WORKERS);
  if (cfg->bind < -1 || cfg->bind > 1) return bad_field("bind", cfg->bind, -1, 1);
  if ((int)cfg->victim < ADAPT_VICTIM_DEFAULT || (int)cfg->victim > ADAPT_VICTIM_CACHE)
    return bad_field("victim", (int)cfg->victim, ADAPT_VICTIM_DEFAULT, ADAPT_VICTIM_CACHE);
  if ((int)cfg->steal_order < ADAPT_STEAL_DEFAULT || (int)cfg->steal_order > ADAPT_STEAL_INNER)
    return bad_field("steal_order", (int)cfg->steal_order, ADAPT_STEAL_DEFAULT, ADAPT_STEAL_INNER);
  if (cfg->spin_us > ADAPT__SETTINGS_US_MAX)
    return bad_field("spin_us", cfg->spin_us, 0, ADAPT__SETTINGS_US_MAX);
  if (cfg->steal_timeout_us > ADAPT__SETTINGS_US_MAX)
    return bad_field("steal_timeout_us", cfg->steal_timeout_us, 0, ADAPT__SETTINGS_US_MAX);
  if (cfg->stats < 0 || cfg->stats > 1) return bad_field("stats", cfg->stats, 0, 1);
  return 0;
}

int adapt__settings_resolve(const adapt_config *cfg, int npus, int quiet_repeat,
                            adapt__settings *o) {
  const adapt_config zero = {0};
  if (!cfg) cfg = &zero;
  int rc = adapt__settings_check_config(cfg);
  if (rc) return rc;
  env_value e[S_COUNT];
  rc = read_env(e, quiet_repeat);
  if (rc) return rc;

  o->workers = cfg->workers               ? cfg->workers
               : e[S_WORKERS].set         ? (int)e[S_WORKERS].value
               : npus < ADAPT_MAX_WORKERS ? npus
                                          : ADAPT_MAX_WORKERS;
  o->bind = cfg->bind ? cfg->bind == 1 : e[S_BIND].set ? e[S_BIND].value == 1 : 1;
  o->victim_cache = cfg->victim       ? cfg->victim == ADAPT_VICTIM_CACHE
                    : e[S_VICTIM].set ? e[S_VICTIM].value == ADAPT_VICTIM_CACHE
                                      : 1;
  o->steal_outer = cfg->steal_order       ? cfg->steal_order == ADAPT_STEAL_OUTER
                   : e[S_STEAL_ORDER].set ? e[S_STEAL_ORDER].value == ADAPT_STEAL_OUTER
                                          : 1;
  o->spin_us = cfg->spin_us       ? cfg->spin_us
               : e[S_SPIN_US].set ? (unsigned)e[S_SPIN_US].value
                                  : ADAPT_SPIN_US_DEFAULT;
  o->steal_timeout_us = cfg->steal_timeout_us       ? cfg->steal_timeout_us
                        : e[S_STEAL_TIMEOUT_US].set ? (unsigned)e[S_STEAL_TIMEOUT_US].value
                                                    : ADAPT_STEAL_TIMEOUT_US_DEFAULT;
  o->stats = cfg->stats ? 1 : e[S_STATS].set ? e[S_STATS].value == 1 : 0;
  /* cfg's "" asks for no trace, also against ADAPT_TRACE */
  o->trace_file = cfg->trace_file ? cfg->trace_file : e[S_TRACE].text;
  if (o->trace_file && !*o->trace_file) o->trace_file = NULL;
  o->trace_mask = !o->trace_file          ? 0
                  : e[S_TRACE_EVENTS].set ? (unsigned)e[S_TRACE_EVENTS].value
                                          : (unsigned)(ADAPT__TRACE_RANGE | ADAPT__TRACE_STEAL |
                                                       ADAPT__TRACE_PREEMPT | ADAPT__TRACE_SLEEP);

  o->seq.grain = e[S_GRAIN].set ? (size_t)e[S_GRAIN].value : 0;
  o->seq.sched = e[S_SCHED].set ? (adapt_sched)e[S_SCHED].value : ADAPT_SCHED_ADAPTIVE;
  /* Nested loops split lazily unless ADAPT_SCHED says otherwise
   * (docs/benchmarks-sched.md, Table 3). */
  o->nested_sched = e[S_SCHED].set ? (adapt_sched)e[S_SCHED].value : ADAPT_SCHED_LAZY_DF2;
  o->seq.window = e[S_WINDOW].set ? (adapt_window_mode)e[S_WINDOW].value : ADAPT_WINDOW_NONE;
  o->seq.window_size = e[S_WINDOW_SIZE].set ? (size_t)e[S_WINDOW_SIZE].value : 0;
  o->seq.splitter =
      e[S_SPLITTER].set ? (adapt_window_splitter)e[S_SPLITTER].value : ADAPT_SPLITTER_BALANCED;
  o->spawn_keep = e[S_SPAWN_KEEP].set ? (unsigned)e[S_SPAWN_KEEP].value : ADAPT_SPAWN_KEEP_DEFAULT;
  return 0;
}
