/* Parameters of one sequence-algorithm call: the attribute, completed by the
 * defaults adapt_init read from the environment (ADAPT_WINDOW,
 * ADAPT_WINDOW_SIZE, ADAPT_SPLITTER, ADAPT_GRAIN, ADAPT_SCHED; adapt_ext.h)
 * and the built-in ones; plus the argument checks every algorithm shares.
 * Every error sets the calling thread's detail (adapt_last_error) naming
 * the public function `fn`. */
#ifndef ALGORITHMS_SEQ_PARAMS_H
#define ALGORITHMS_SEQ_PARAMS_H

#include <stddef.h>
#include <adapt/algorithms.h>

typedef struct adapt__seq_params {
  const char *fn;                 /* the public function, for error details */
  size_t n;                       /* units to process */
  size_t window;                  /* m in units; n (at least 1) in ADAPT_WINDOW_NONE */
  adapt_window_mode mode;         /* NONE, STATIC or SLIDING (never DEFAULT) */
  adapt_window_splitter splitter; /* LOCAL, DISTANT or BALANCED (never DEFAULT) */
  size_t grain;                   /* units per chunk, >= 1, <= window */
  int auto_grain;                 /* 1: the owner calibrates the grain */
  /* With the kernel, the key under which the calibrated grain is
   * remembered for the next call (the user's callback); NULL: none. Set by
   * the caller after adapt__seq_params_resolve (which sets NULL). */
  void (*grain_key)(void);
  adapt_sched sched;         /* attr->sched, checked (DEFAULT: see adapt__seq_run) */
  adapt_sched sched_default; /* what DEFAULT means: ADAPT_SCHED, else ADAPTIVE */
  /* Parts each thief gets for the victim's one at a split of the victim's
   * own range (>= 1; 1: equal shares). Set by the caller after
   * adapt__seq_params_resolve (which sets 1). */
  unsigned thief_parts;
  unsigned max_workers; /* attr->max_workers: 0 all, else the call's team size */
} adapt__seq_params;

/* Fill *p for a call of the public function fn over `count` elements
 * grouped in units of `unit` elements (1 except for adapt_reduce's blocks);
 * `footprint` is the bytes one element touches when attr->footprint is 0.
 * Each field: the attribute's if set, else adapt_init's value of its
 * variable, else the default. Window sizes and grains given in elements are
 * converted to units (rounded down, at least 1). count 0 checks the
 * attribute only and does not start the runtime (p->n = 0).
 * Cost: a few plain reads after one acquire load (adapt__seq_defaults_get).
 * Errors: -EINVAL attribute value out of its enum; adapt_init's errors
 * (lazy start: a bad environment value is reported there, once). */
int adapt__seq_params_resolve(const char *fn, const adapt_attr *attr, size_t count, size_t unit,
                              size_t footprint, adapt__seq_params *p);

/* The default window size in elements for `footprint` bytes per element:
 * shared cache / (ADAPT_ALGO_WINDOW_DIVISOR * footprint), at least 1. */
size_t adapt__seq_default_window(size_t footprint);

/* count * size in *bytes; -EOVERFLOW when it does not fit in size_t,
 * -EINVAL size 0. The detail names fn and the arguments count_name and
 * size_name ("adapt_transform: count * in_size overflows size_t"). */
int adapt__seq_bytes(const char *fn, const char *count_name, const char *size_name, size_t count,
                     size_t size, size_t *bytes);

/* 1 when [a, a+na) and [b, b+nb) share a byte. */
int adapt__seq_overlap(const void *a, size_t na, const void *b, size_t nb);

#endif /* ALGORITHMS_SEQ_PARAMS_H */
