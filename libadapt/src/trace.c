/* Event trace: per-worker buffers, CSV output at finalize. */
#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "worker.h"

unsigned adapt__trace_mask;

void adapt__trace(adapt__worker *w, unsigned cat, uint64_t t0, uint64_t t1, uint64_t a,
                  uint64_t b) {
  adapt__trace_buf *tb = &w->trace;
  if (tb->n == tb->cap) {
    if (tb->cap >= ADAPT_TRACE_MAX_EVENTS) return; /* full: later events are dropped */
    size_t cap = tb->cap ? tb->cap * 2 : 4096;
    adapt__trace_event *ev = realloc(tb->ev, cap * sizeof *ev);
    if (!ev) return;
    tb->ev = ev;
    tb->cap = cap;
  }
  tb->ev[tb->n++] = (adapt__trace_event){t0, t1, a, b, cat};
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
  return fclose(f) ? -errno : 0;
}

void adapt__trace_free(adapt__worker *w) {
  free(w->trace.ev);
  w->trace.ev = NULL;
  w->trace.n = w->trace.cap = 0;
}
