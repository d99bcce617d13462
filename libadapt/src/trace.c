/* Event trace: per-worker buffers, CSV output at finalize. */
#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <adapt/adaptive.h>

#include "../ext/adapt_ext.h"
#include "frame.h"
#include "worker.h"

unsigned adapt__trace_mask;

void adapt__trace(adapt__worker *w, unsigned cat, uint64_t t0, uint64_t t1, uint64_t a,
                  uint64_t b) {
  adapt__trace_buf *tb = &w->trace;
  if (tb->n == tb->cap) {
    size_t cap = tb->cap ? tb->cap * 2 : 4096;
    adapt__trace_event *ev =
        tb->cap >= ADAPT_TRACE_MAX_EVENTS ? NULL : realloc(tb->ev, cap * sizeof *ev);
    if (!ev) { /* full, or out of memory: counted, said when the trace is written */
      if (tb->cap >= ADAPT_TRACE_MAX_EVENTS)
        tb->dropped++;
      else
        tb->dropped_nomem++;
      return;
    }
    tb->ev = ev;
    tb->cap = cap;
  }
  tb->ev[tb->n++] = (adapt__trace_event){t0, t1, a, b, cat};
}

int adapt__trace_ranges_on(void) { return (adapt__trace_mask & ADAPT__TRACE_RANGE) != 0; }

void adapt__trace_range(adapt_frame *frame, uint64_t t0, uint64_t t1, size_t b, size_t e) {
  adapt__trace(adapt__frame_of(frame)->w, ADAPT__TRACE_RANGE, t0, t1, b, e);
}

static const char *cat_name(unsigned c) {
  switch (c) {
  case ADAPT__TRACE_RANGE: return "range";
  case ADAPT__TRACE_STEAL: return "steal";
  case ADAPT__TRACE_PREEMPT: return "preempt";
  default: return "sleep";
  }
}

int adapt__trace_write(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -errno;
  fprintf(f, "worker,event,a,b,t0_ns,t1_ns\n");
  for (int i = 0; i < adapt__rt.nworkers; i++) {
    adapt__trace_buf *tb = &adapt__rt.workers[i]->trace;
    for (size_t k = 0; k < tb->n; k++) {
      adapt__trace_event *e = &tb->ev[k];
      fprintf(f, "%d,%s,%llu,%llu,%llu,%llu\n", i, cat_name(e->cat), (unsigned long long)e->a,
              (unsigned long long)e->b, (unsigned long long)e->t0, (unsigned long long)e->t1);
    }
  }
  int rc = fclose(f) ? -errno : 0;
  for (int i = 0; i < adapt__rt.nworkers; i++) {
    const adapt__trace_buf *tb = &adapt__rt.workers[i]->trace;
    if (tb->dropped_nomem)
      fprintf(stderr,
              "libadapt: trace %s: worker %d dropped %zu events: out of memory growing its "
              "buffer (the trace has gaps where they were)\n",
              path, i, tb->dropped_nomem);
    if (tb->dropped)
      fprintf(stderr,
              "libadapt: trace %s: worker %d dropped its last %zu events (at most %u per "
              "worker: ADAPT_TRACE_MAX_EVENTS, libadapt/src/config.h)\n",
              path, i, tb->dropped, (unsigned)ADAPT_TRACE_MAX_EVENTS);
  }
  return rc;
}

void adapt__trace_free(adapt__worker *w) {
  free(w->trace.ev);
  w->trace.ev = NULL;
  w->trace.n = w->trace.cap = w->trace.dropped = w->trace.dropped_nomem = 0;
}
