/* Parameters of one sequence-algorithm call: the attribute, completed by the
 * environment (ADAPT_WINDOW, ADAPT_WINDOW_SIZE, ADAPT_SPLITTER, ADAPT_GRAIN)
 * and the defaults; plus the argument checks every algorithm shares. */
#ifndef ALGORITHMS_SEQ_PARAMS_H
#define ALGORITHMS_SEQ_PARAMS_H

#include <stddef.h>
#include <adapt/algorithms.h>

typedef struct adapt__seq_params {
  size_t n;                       /* units to process */
  size_t window;                  /* m in units; n (at least 1) in ADAPT_WINDOW_NONE */
  adapt_window_mode mode;         /* NONE, STATIC or SLIDING (never DEFAULT) */
  adapt_window_splitter splitter; /* LOCAL, DISTANT or BALANCED (never DEFAULT) */
  size_t grain;                   /* units per chunk, >= 1, <= window */
  int auto_grain;                 /* 1: the owner calibrates the grain */
  adapt_sched sched;              /* attr->sched, checked (DEFAULT: see adapt__seq_exec) */
} adapt__seq_params;

/* Fill *p for a call over `count` elements grouped in units of `unit`
 * elements (1 except for adapt_reduce's blocks); `footprint` is the bytes
 * one element touches when attr->footprint is 0. Window sizes and grains
 * given in elements are converted to units (rounded down, at least 1).
 * Errors: -EINVAL bad attribute or environment value (the message names the
 * variable on stderr for the environment). */
int adapt__seq_params_resolve(const adapt_attr *attr, size_t count, size_t unit, size_t footprint,
                              adapt__seq_params *p);

/* The default window size in elements for `footprint` bytes per element:
 * shared cache / (ADAPT_ALGO_WINDOW_DIVISOR * footprint), at least 1. */
size_t adapt__seq_default_window(size_t footprint);

/* count * size in *bytes; -EOVERFLOW when it does not fit in size_t,
 * -EINVAL size 0. */
int adapt__seq_bytes(size_t count, size_t size, size_t *bytes);

/* 1 when [a, a+na) and [b, b+nb) share a byte. */
int adapt__seq_overlap(const void *a, size_t na, const void *b, size_t nb);

#endif /* ALGORITHMS_SEQ_PARAMS_H */
