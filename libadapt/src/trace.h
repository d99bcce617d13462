/* Event trace (ADAPT_TRACE=file): which worker ran which range when, and the
 * steals. Categories (ADAPT_TRACE_EVENTS=range,steal,preempt,sleep,all,
 * checked by settings.c; default all). Each worker appends to its own
 * buffer; the file (CSV) is written at finalize. */
#ifndef LIBADAPT_SRC_TRACE_H
#define LIBADAPT_SRC_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum adapt__trace_cat {
  ADAPT__TRACE_RANGE = 1u << 0,   /* a contiguous range run by a loop: a=begin, b=end */
  ADAPT__TRACE_STEAL = 1u << 1,   /* a piece received: a=victim, b=key */
  ADAPT__TRACE_PREEMPT = 1u << 2, /* a thief preempted: a=thief, b=key */
  ADAPT__TRACE_SLEEP = 1u << 3    /* a sleep: a=b=0 */
};

typedef struct adapt__trace_event {
  uint64_t t0, t1;
  uint64_t a, b;
  unsigned cat;
} adapt__trace_event;

typedef struct adapt__trace_buf {
  adapt__trace_event *ev;
  size_t n, cap;
  size_t dropped;       /* events lost: buffer at ADAPT_TRACE_MAX_EVENTS (the last ones) */
  size_t dropped_nomem; /* events lost: growing the buffer failed (gaps in the trace) */
} adapt__trace_buf;

struct adapt__worker;
/* Categories enabled (0: tracing off). Read-only after init. */
extern unsigned adapt__trace_mask;
void adapt__trace(struct adapt__worker *w, unsigned cat, uint64_t t0, uint64_t t1, uint64_t a,
                  uint64_t b);
int adapt__trace_write(const char *path);
void adapt__trace_free(struct adapt__worker *w);

#endif /* LIBADAPT_SRC_TRACE_H */
